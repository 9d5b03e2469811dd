/**
 * The classifier and the emitters never branch on the spec version: the IR normalized it away (one
 * request-body model, schemas in the 3.1 form, one security-scheme reader). The code of every file under
 * src/classify*, src/emit and src/serve — comments removed by the TypeScript printer, so prose may still say
 * where a form came from — must not name a spec format, a Swagger 2.0-only construct or OpenAPI 3.0's
 * `nullable`. (An IR `Parameter` cannot be `in: 'body'`/`'formData'` at all: its type forbids it.)
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const SCOPES = ['src/classify', 'src/classify-extra', 'src/emit', 'src/serve'];

/** Each names a way to tell one spec version from another. */
const VERSION_MARKS: [string, RegExp][] = [
  ['a spec format literal', /['"`]openapi(2|3\.[01])['"`]/],
  ['the spec format of the model', /\b(api|doc|ctx)\.format\b|\bSpecFormat\b/],
  ['Swagger', /swagger/i],
  ['a Swagger 2.0 location or field', /\bformData\b|\bconsumes\b|\bproduces\b|\bsecurityDefinitions\b|['"`]file['"`]/],
  ['OpenAPI 3.0 nullable', /['"`](x-)?nullable['"`]|\.nullable\b|\bnullable\s*[:?]/],
  ['a schema dialect switch', /\bdialect(Of)?\b/],
];

/** Exact code that may stay, with why. */
const ALLOWED: { file: string; code: string; why: string }[] = [
  {
    file: 'src/classify/native-key.ts',
    code: 'inner.in === "formData"',
    why: 'an `x-idempotency` carrier may be spelled `in: formData` by its author; it is extension vocabulary, not the spec version',
  },
];

/**
 * The emit registry's own word: an artifact declares the pipeline stages it `consumes` (`['plan', 'toolModel']`).
 * In these files `consumes` is that field, never Swagger 2.0's media-type list.
 */
const STAGE_FILES = /^src\/emit\/(artifact|registry|[^/]+\/artifact)\.ts$/;

function filesUnder(dir: string): string[] {
  const abs = join(ROOT, dir);
  let entries: string[];
  try {
    entries = readdirSync(abs);
  } catch {
    return []; // src/classify-extra is being folded into src/classify
  }
  return entries.flatMap((name) => {
    const path = join(abs, name);
    if (statSync(path).isDirectory()) return filesUnder(relative(ROOT, path));
    return name.endsWith('.ts') ? [relative(ROOT, path)] : [];
  });
}

/** Code without comments (the printer drops them), one statement per line. */
function printed(name: string, text: string): string {
  const source = ts.createSourceFile(name, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  return ts.createPrinter({ removeComments: true }).printFile(source);
}

const codeOf = (file: string): string => printed(file, readFileSync(join(ROOT, file), 'utf8'));

/** `file: line` for every line of code that names a spec version and is not allowed. */
function versionMentions(file: string, code: string): string[] {
  const out: string[] = [];
  for (const line of code.split('\n')) {
    if (ALLOWED.some((a) => a.file === file && line.includes(a.code))) continue;
    const code = STAGE_FILES.test(file) ? line.replace(/\bconsumes\b/g, '') : line;
    for (const [what, re] of VERSION_MARKS) if (re.test(code)) out.push(`${file}: ${what}: ${line.trim()}`);
  }
  return out;
}

describe('classify, emit and serve never branch on the spec version', () => {
  const files = SCOPES.flatMap(filesUnder).filter((f) => !f.startsWith('src/emit/sql/'));

  it('scans the emitters and the classifier', () => {
    expect(files).toEqual(
      expect.arrayContaining([
        'src/classify/body-key.ts',
        'src/emit/client/schema-type.ts',
        'src/emit/tools/normalize.ts',
        'src/emit/tools/http-input.ts',
      ]),
    );
  });

  it('no file names a spec version in its code', () => {
    expect(files.flatMap((f) => versionMentions(f, codeOf(f)))).toEqual([]);
  });

  it('the check itself catches each kind of version branch, and ignores comments', () => {
    const caught = (code: string) => versionMentions('src/emit/x.ts', printed('x.ts', code));
    expect(caught("if (api.format === 'openapi2') f();")).toHaveLength(2);
    expect(caught("const b = op.parameters.find((p) => p.in === 'formData');")).toHaveLength(1);
    expect(caught("const n = s['nullable'] === true || s['x-nullable'] === true;")).toHaveLength(1);
    expect(caught('const n = schema.nullable;')).toHaveLength(1);
    expect(caught("if (s.type === 'file') w.write('Blob');")).toHaveLength(1);
    expect(caught('const swagger = isSwagger2(root);')).toHaveLength(1);
    expect(caught('// Swagger 2 had formData and nullable\n/** openapi2 */\nconst x = 1;')).toEqual([]);
  });
});
