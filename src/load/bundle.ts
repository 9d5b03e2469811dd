/**
 * Bundling of external `$ref`s (multi-file specs) into the root document, never a full
 * dereference: real specs are circular (Stripe). Each external target is inlined once, at its
 * first reference site; every later reference (and any cycle back into it) is rewritten to an
 * in-document `#/…` ref to that site. In-file refs are kept as written and only checked.
 */
import path from 'node:path';
import { diagnostic, type Diagnostic } from '../diagnostics/diagnostic.js';
import { appendPointer, escapeSegment, formatPointer, parsePointer } from '../json-pointer/pointer.js';
import { decodeFragment, idIndex, isObject, resolveRefTarget, resolveSegments } from '../json-pointer/refs.js';
import { findRefCycles } from './ref-cycles.js';
import type { SourcePosition } from './types.js';
import { LITERAL_KEYS, OPENAPI_NAME_MAPS, SCHEMA_NAME_MAPS } from './keywords.js';

export interface PartFile {
  value: unknown;
  display: string;
  locate(pointer: string): SourcePosition | undefined;
}

/** Reads another file of the spec; a diagnostic when it cannot be read or parsed. */
export type ReadPart = (abs: string) => PartFile | Diagnostic;

/**
 * Where a node is: its pointer in the bundled root (`at`), the file it was written in and its pointer there
 * (`local`). Both pointers are built on first use, from the parent's: the walk visits every node of the
 * spec, and only the few that carry a `$ref` or a problem ever need theirs.
 */
class Site {
  private atText: string | undefined;
  private localText: string | undefined;

  private constructor(
    readonly file: string,
    private readonly parent: Site | undefined,
    private readonly key: string | number,
    at?: string,
    local?: string,
  ) {
    this.atText = at;
    this.localText = local;
  }

  /** A node whose pointers are known: the root, or an external target placed at `at`. */
  static placed(file: string, at: string, local: string): Site {
    return new Site(file, undefined, '', at, local);
  }

  /** The member `key` (or item) of this node, in the same file. */
  child(key: string | number): Site {
    return new Site(this.file, this, key);
  }

  get at(): string {
    this.atText ??= `${(this.parent as Site).at}/${escapeSegment(this.key)}`;
    return this.atText;
  }

  get local(): string {
    this.localText ??= `${(this.parent as Site).local}/${escapeSegment(this.key)}`;
    return this.localText;
  }
}

// A `$ref` inside LITERAL_KEYS is literal (GitHub's SCIM examples carry `"$ref": "https://…"`). `x-*`
// extensions have vendor-defined meaning (train-travel's x-topics refs a Markdown file), so they are not
// bundled. Maps whose keys are user-chosen names, where `default` or `x-foo` are ordinary names:
const NAME_MAPS: ReadonlySet<string> = new Set([...SCHEMA_NAME_MAPS, ...OPENAPI_NAME_MAPS]);

export class Bundler {
  readonly diagnostics: Diagnostic[] = [];
  /** Absolute paths of the other files that were bundled in. */
  readonly parts = new Set<string>();
  /** Every other file a `$ref` pointed at, bundled or not (so it is not reported twice). */
  readonly touched = new Set<string>();
  private readonly placed = new Map<string, string>();
  /** In-file refs of the root as met, and where (two lists: a Graph-sized spec has ~100,000 of them). */
  private readonly internalRefs: string[] = [];
  private readonly internalSites: Site[] = [];

  constructor(
    private readonly root: PartFile & { abs: string },
    private readonly readPart: ReadPart,
  ) {}

  bundle(): unknown {
    const holder = { root: this.root.value };
    this.visit(holder, 'root', Site.placed(this.root.abs, '', ''), undefined);
    this.checkInternalRefs(holder.root);
    return holder.root;
  }

  /**
   * The node `holder[key]`, at `site`. Every node of the spec is visited (Graph: about a million), so the walk
   * makes a child's site only when it descends into the child, and reads keys with `for…in` (a parsed
   * document has no inherited enumerable keys) instead of an array of them per node.
   */
  private visit(
    holder: Record<string, unknown> | unknown[],
    key: string | number,
    site: Site,
    parentKey: string | undefined,
  ): void {
    const node = (holder as Record<string | number, unknown>)[key];
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const item: unknown = node[i];
        if (typeof item === 'object' && item !== null) this.visit(node, i, site.child(i), parentKey);
      }
      return;
    }
    if (!isObject(node)) return;
    let content = node;
    let contentSite = site;
    if (typeof node.$ref === 'string') {
      let inlined = this.resolveSite(node, node.$ref, site);
      // A target that is itself a `$ref` is resolved from the file it was written in (each external
      // target is placed once, so a chain through files ends in a rewrite, even when it cycles).
      while (inlined) {
        (holder as Record<string | number, unknown>)[key] = inlined.value;
        content = inlined.value as Record<string, unknown>;
        contentSite = inlined.site;
        if (!isObject(content)) return;
        inlined = typeof content.$ref === 'string' ? this.resolveSite(content, content.$ref, contentSite) : undefined;
      }
    }
    const ownKey = typeof key === 'string' ? key : parentKey;
    const names = ownKey !== undefined && NAME_MAPS.has(ownKey);
    for (const k in content) {
      const v = content[k];
      // Scalars hold no `$ref` (whatever their key): no site is made for them, no key is looked up.
      if (typeof v !== 'object' || v === null || k === '$ref') continue;
      if (!names && (LITERAL_KEYS.has(k) || k.startsWith('x-'))) {
        if (k === 'examples' && isObject(v)) this.visitExampleRefs(v, contentSite.child(k));
        continue;
      }
      this.visit(content, k, contentSite.child(k), ownKey);
    }
  }

  /** OpenAPI 3 `examples` maps: an entry may be a Reference Object; its `value` is literal. */
  private visitExampleRefs(examples: Record<string, unknown>, site: Site): void {
    for (const name of Object.keys(examples)) {
      const entry = examples[name];
      if (isObject(entry) && typeof entry.$ref === 'string') this.visit(examples, name, site.child(name), 'examples');
    }
  }

  /** Returns the inlined content for a first external reference; rewrites or checks the rest. */
  private resolveSite(
    node: Record<string, unknown>,
    ref: string,
    site: Site,
  ): { value: unknown; site: Site } | undefined {
    const hash = ref.indexOf('#');
    const filePart = hash === -1 ? ref : ref.slice(0, hash);
    const inRoot = site.file === this.root.abs;
    // An in-file ref of the root (nearly every ref of a one-file spec) is only noted, for checkInternalRefs.
    if (inRoot && (filePart === '' || idIndexHas(this.root.value, filePart))) {
      this.internalRefs.push(ref);
      this.internalSites.push(site);
      return undefined;
    }
    const fragment = hash === -1 ? '' : decodeFragment(ref.slice(hash + 1));
    // An in-file ref of another file (`filePart` empty) is resolved in that file.
    let abs = site.file;
    if (filePart !== '') {
      if (/^[a-z][a-z0-9+.-]*:/i.test(filePart) && !/^file:/i.test(filePart)) {
        this.report(
          'remote_ref',
          'warning',
          `remote $ref ${ref} is not fetched (idemgen never uses the network); treated as unknown`,
          site,
        );
        return undefined;
      }
      abs = path.resolve(path.dirname(site.file), decodeFilePart(filePart));
    }
    if (abs === this.root.abs || this.placedPointer(abs, fragment) !== undefined) {
      // Rewritten refs are checked like in-file ones: a ref-only cycle may run through another file.
      if (this.rewriteInto(node, abs, fragment, site, ref)) {
        this.internalRefs.push(node.$ref as string);
        this.internalSites.push(site);
      }
      return undefined;
    }
    this.touched.add(abs);
    const part = this.readPart(abs);
    if (!('value' in part)) {
      if (part.code !== 'input_not_found')
        this.diagnostics.push({ ...part, message: `${part.message} (referenced by ${ref})` });
      this.report(
        'unresolved_ref',
        'warning',
        `$ref ${ref} cannot be resolved: ${part.code}; treated as unknown`,
        site,
      );
      return undefined;
    }
    const segments = parsePointer(fragment);
    const target = segments ? resolveSegments(part.value, segments) : undefined;
    if (target === undefined) {
      this.report(
        'unresolved_ref',
        'warning',
        `$ref ${ref} cannot be resolved: no ${fragment || 'document'} in ${part.display}; treated as unknown`,
        site,
      );
      return undefined;
    }
    this.parts.add(abs);
    this.placed.set(`${abs}#${fragment}`, site.at);
    const { $ref: _ref, ...siblings } = node;
    const copy = structuredClone(target);
    const value = isObject(copy) && Object.keys(siblings).length > 0 ? { ...copy, ...siblings } : copy;
    return { value, site: Site.placed(abs, site.at, fragment) };
  }

  /** Pointer in the bundled root where (file, fragment) already lives, via its nearest placed ancestor. */
  private placedPointer(abs: string, fragment: string): string | undefined {
    if (abs === this.root.abs) return fragment;
    const segments = parsePointer(fragment) ?? [];
    for (let n = segments.length; n >= 0; n--) {
      const at = this.placed.get(`${abs}#${formatPointer(segments.slice(0, n))}`);
      if (at !== undefined) return at + formatPointer(segments.slice(n));
    }
    return undefined;
  }

  private rewriteInto(node: Record<string, unknown>, abs: string, fragment: string, site: Site, ref: string): boolean {
    const at = this.placedPointer(abs, fragment);
    if (at === undefined) {
      this.report('unresolved_ref', 'warning', `$ref ${ref} cannot be placed in the bundle; treated as unknown`, site);
      return false;
    }
    node.$ref = `#${at.replace(/%/g, '%25')}`;
    return true;
  }

  /**
   * Every broken in-document ref is one warning at its own `$ref` (so a user sees each place to fix); a
   * ref-only cycle is one warning for the whole cycle, at its first member.
   */
  private checkInternalRefs(bundled: unknown): void {
    const ok = new Set<string>();
    for (let i = 0; i < this.internalRefs.length; i++) {
      const ref = this.internalRefs[i];
      if (ok.has(ref)) continue;
      const site = this.internalSites[i];
      if (resolveRefTarget(bundled, ref) !== undefined) ok.add(ref);
      else
        this.report(
          'unresolved_ref',
          'warning',
          `$ref ${ref} does not resolve in ${this.root.display}; treated as unknown`,
          site,
        );
    }
    for (const members of findRefCycles(bundled, ok)) {
      const pointer = appendPointer(members[0], '$ref');
      const message = `$ref cycle with no schema in it (${members.map((m) => `#${m}`).join(' → ')} → …); treated as unknown`;
      this.diagnostics.push(
        diagnostic('ref_cycle', 'warning', message, { file: this.root.display, pointer, ...this.root.locate(pointer) }),
      );
    }
  }

  private report(code: string, severity: 'error' | 'warning', message: string, site: Site): void {
    const pointer = appendPointer(site.local, '$ref');
    if (site.file === this.root.abs) {
      this.diagnostics.push(
        diagnostic(code, severity, message, { file: this.root.display, pointer, ...this.root.locate(pointer) }),
      );
      return;
    }
    const part = this.readPart(site.file);
    const where = 'value' in part ? { file: part.display, pointer, ...part.locate(pointer) } : { pointer };
    this.diagnostics.push(diagnostic(code, severity, message, where));
  }
}

function idIndexHas(root: unknown, base: string): boolean {
  return idIndex(root).ids.has(base);
}

function decodeFilePart(filePart: string): string {
  const withoutScheme = filePart.replace(/^file:(\/\/)?/i, '');
  return decodeFragment(withoutScheme);
}
