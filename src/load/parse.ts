import { createRequire } from 'node:module';
import type { Document, Node as YamlNode } from 'yaml';

/** The `yaml` package, loaded on the first YAML input: a JSON spec never pays for it. */
let yamlModule: typeof import('yaml') | undefined;
const yaml = (): typeof import('yaml') => {
  yamlModule ??= createRequire(import.meta.url)('yaml') as typeof import('yaml');
  return yamlModule;
};
import { findJsonErrorOffset } from './json-error.js';
import { JsonLocator } from './json-scan.js';

export type Syntax = 'json' | 'yaml';

export type ParseResult =
  | { ok: true; value: unknown }
  | { ok: false; code: 'invalid_json' | 'invalid_yaml'; message: string; offset: number };

// YAML 1.2 core schema plus `<<` merge keys (common in hand-written specs); duplicate keys are
// tolerated (last wins) because real specs contain them and JSON.parse does the same.
const YAML_OPTIONS = { uniqueKeys: false, merge: true, prettyErrors: false } as const;

export function syntaxOf(file: string): Syntax {
  return /\.json$/i.test(file) ? 'json' : 'yaml';
}

function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

export function parseSource(text: string, syntax: Syntax): ParseResult {
  return syntax === 'json' ? parseJson(text) : parseYaml(text);
}

function parseJson(text: string): ParseResult {
  try {
    return { ok: true, value: JSON.parse(stripBom(text)) };
  } catch (err) {
    const offset = Math.max(0, findJsonErrorOffset(text));
    return { ok: false, code: 'invalid_json', message: (err as Error).message, offset };
  }
}

function parseYaml(text: string): ParseResult {
  let doc: Document;
  try {
    doc = yaml().parseDocument(stripBom(text), YAML_OPTIONS);
  } catch (e) {
    // Pathological nesting can exhaust the parser's stack: still the user's input, not our bug.
    return { ok: false, code: 'invalid_yaml', message: (e as Error).message, offset: 0 };
  }
  const bom = text.length - stripBom(text).length;
  const err = doc.errors[0];
  if (err) return { ok: false, code: 'invalid_yaml', message: err.message.split('\n')[0], offset: err.pos[0] + bom };
  try {
    // Generous but bounded alias expansion: real specs use anchors, "billion laughs" input must not hang us.
    return { ok: true, value: doc.toJS({ maxAliasCount: 10_000 }) };
  } catch (e) {
    return { ok: false, code: 'invalid_yaml', message: (e as Error).message, offset: 0 };
  }
}

/** Offset of a pointer's deepest existing prefix in a text source (member key or item start). */
export function makeOffsetLocator(text: string, syntax: Syntax): (segments: readonly string[]) => number | undefined {
  if (syntax === 'json') {
    // One locator per text: diagnostics by the thousand (Graph) reuse what earlier lookups scanned.
    const locator = new JsonLocator(text);
    return (segments) => locator.locate(segments);
  }
  let doc: Document | undefined;
  const bom = text.length - stripBom(text).length;
  return (segments) => {
    // Parsed again lazily: keeping every YAML AST alive would cost far more memory than re-parsing
    // the few files that actually get a diagnostic.
    doc ??= yaml().parseDocument(stripBom(text), YAML_OPTIONS);
    const at = locateYamlOffset(doc, segments);
    return at === undefined ? undefined : at + bom;
  };
}

function locateYamlOffset(doc: Document, segments: readonly string[]): number | undefined {
  const { isAlias, isMap, isScalar, isSeq } = yaml();
  let node = doc.contents as YamlNode | null;
  let found = node?.range?.[0];
  for (const seg of segments) {
    while (node && isAlias(node)) node = node.resolve(doc) ?? null;
    if (isMap(node)) {
      const pair = node.items.find((p) => String(isScalar(p.key) ? p.key.value : p.key) === seg);
      if (!pair) return found;
      found = (pair.key as YamlNode | null)?.range?.[0] ?? found;
      node = pair.value as YamlNode | null;
    } else if (isSeq(node) && /^(0|[1-9]\d*)$/.test(seg)) {
      const item = node.items[Number(seg)] as YamlNode | undefined;
      if (!item) return found;
      found = item.range?.[0] ?? found;
      node = item;
    } else return found;
  }
  return found;
}
