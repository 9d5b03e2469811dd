/**
 * How the store's Lua runs on the server: as a Redis Functions library (`FUNCTION LOAD`, `FCALL`;
 * Redis ≥ 7.0, Valkey) when the server has it, else by EVALSHA. Same code, same atomicity; the
 * difference is cost — on Redis 7.0.15 an `FCALL` of a function that returns 1 costs what a `GET`
 * does, an `EVALSHA` of the same body about 15–20 µs more per call (scratch bench in
 * docs/decisions/0089-redis-fresh-key-fourth-pass-two-commands-per-call-no-index.md), and the completion
 * runs one per idempotent call.
 *
 * The library is loaded lazily: the first `FCALL` that finds no function (a fresh server, a restart
 * without persistence, `FUNCTION FLUSH`) loads it and retries once. Its name carries a hash of the
 * code, so two idemgen versions on one server each keep their own library (a function name is global
 * on the server). A server without functions (Redis < 7.0: unknown command) or a user whose ACL denies
 * them (NOPERM), on FCALL or on FUNCTION LOAD, switches this connection to EVALSHA for good, with one
 * fallback to EVAL on NOSCRIPT. Any other error is the caller's, as from any command.
 */
import { createHash } from 'node:crypto';

type Command = (args: string[]) => Promise<unknown>;
export type RunScript = (lua: string, keys: string[], args: string[]) => Promise<unknown>;

const sha1 = (text: string): string => createHash('sha1').update(text).digest('hex');
const message = (err: unknown): string => String((err as Error)?.message);
const UNSUPPORTED = /unknown command|NOPERM/i;
const NOT_LOADED = /function not found/i;

/** The library text and each script's function name. */
function functionLibrary(scripts: readonly string[]): { text: string; names: Map<string, string> } {
  const lib = `idemgen_${sha1(scripts.join('\u0000')).slice(0, 16)}`;
  const names = new Map(scripts.map((lua, i) => [lua, `${lib}_${i}`] as const));
  const bodies = scripts.map((lua, i) => `redis.register_function('${lib}_${i}', function(KEYS, ARGV)\n${lua}\nend)`);
  return { text: `#!lua name=${lib}\n${bodies.join('\n')}\n`, names };
}

export function scriptRunner(command: Command, scripts: readonly string[]): RunScript {
  const { text, names } = functionLibrary(scripts);
  const shas = new Map(scripts.map((lua) => [lua, sha1(lua)] as const));
  let functions = true;
  let loading: Promise<unknown> | undefined;
  // One load at a time; once settled the next miss (a later FUNCTION FLUSH) loads again.
  const load = (): Promise<unknown> =>
    (loading ??= command(['FUNCTION', 'LOAD', 'REPLACE', text]).finally(() => {
      loading = undefined;
    }));
  const evalsha = async (lua: string, tail: string[]): Promise<unknown> => {
    try {
      return await command(['EVALSHA', shas.get(lua) ?? sha1(lua), ...tail]);
    } catch (err) {
      if (!message(err).startsWith('NOSCRIPT')) throw err;
      return command(['EVAL', lua, ...tail]);
    }
  };
  const fallback = async (lua: string, name: string, tail: string[], err: unknown): Promise<unknown> => {
    if (NOT_LOADED.test(message(err))) {
      try {
        await load();
        return await command(['FCALL', name, ...tail]);
      } catch (loadErr) {
        if (!UNSUPPORTED.test(message(loadErr))) throw loadErr;
      }
    } else if (!UNSUPPORTED.test(message(err))) throw err;
    functions = false; // this server or user has no functions: EVALSHA from now on
    return evalsha(lua, tail);
  };
  // The common case is one FCALL and the client's own promise with a rejection handler: no async frame.
  return (lua, keys, args) => {
    const tail = [String(keys.length), ...keys, ...args];
    const name = functions ? names.get(lua) : undefined;
    if (name === undefined) return evalsha(lua, tail);
    return command(['FCALL', name, ...tail]).catch((err: unknown) => fallback(lua, name, tail, err));
  };
}
