/**
 * `idemgen audit --format html`: one self-contained file (inline style and script, no network) that opens
 * from disk. What does not change with the reader's filters is HTML written here (the summary charts as
 * SVG, the rule table, the legend, the baseline changes); the operations are data in an inline
 * `<script type="application/json">` that the page's script turns into table rows a chunk at a time, so a
 * Graph-sized spec (11,422 operations) is usable at once. Spec text reaches the page only through
 * `htmlText` (element text) or `scriptJson` (the data), and the script only ever sets `textContent`.
 */
import { readFileSync } from 'node:fs';
import type { Mechanism, OperationClass } from '../../classify/types.js';
import type { Severity } from '../../diagnostics/diagnostic.js';
import { htmlText, scriptJson } from '../../escape/index.js';
import { CHANGE_KINDS, CHANGE_TITLES, changesOf, transitionText, type AuditChanges } from './changes.js';
import { CARRIER_LEGEND, CLASS_LEGEND, KEY_STRATEGY_LEGEND, MECHANISM_LEGEND, type LegendEntry } from './legend.js';
import { CLASSES, MECHANISMS, mechanismText, ttlText, type AuditModel, type AuditOperation } from './model.js';
import { RULE_BY_ID } from './rule-index.js';
import { severityText } from '../../classify/rules.js';
import { PACKAGE_ROOT } from '../../package-files.js';

export interface HtmlOptions {
  toolVersion?: string;
  changes?: AuditChanges;
  /** Operation tags by `file \0 key` (OpenAPI `tags`), for the tag filter. */
  tags?: ReadonlyMap<string, readonly string[]>;
  /** The spec position (`line:col`) of an operation by `file \0 key`, for its link. */
  lines?: ReadonlyMap<string, string>;
  /** The link to a spec file from where the report is written (default: the path as given). */
  fileHref?: (file: string) => string;
}

const ASSETS = new URL('templates/report/audit-html/', PACKAGE_ROOT);
let assets: { css: string; js: string } | undefined;

const SEVERITIES: readonly Severity[] = ['error', 'warning', 'info'];
const SEVERITY_MARK: Record<Severity, string> = { error: '✖', warning: '⚠', info: 'ℹ' };

/** Interned strings: repeated reason texts, rules and tags are written once. */
class Strings {
  readonly list: string[] = [];
  readonly #index = new Map<string, number>();
  id(s: string): number {
    let i = this.#index.get(s);
    if (i === undefined) {
      i = this.list.push(s) - 1;
      this.#index.set(s, i);
    }
    return i;
  }
}

export const opId = (file: string, key: string): string => `${file}\u0000${key}`;

/** The operation a finding is about: the one whose pointer is the longest prefix of the finding's. */
function findingOwners(model: AuditModel): (number | null)[] {
  const byPointer = new Map<string, number>();
  model.operations.forEach((o, i) => {
    byPointer.set(opId(o.source.file, o.source.pointer), i);
  });
  return model.diagnostics.map((d) => {
    if (d.file === null || d.pointer === null) return null;
    let p = d.pointer;
    for (;;) {
      const hit = byPointer.get(opId(d.file, p));
      if (hit !== undefined) return hit;
      const cut = p.lastIndexOf('/');
      if (cut <= 0) return null;
      p = p.slice(0, cut);
    }
  });
}

/** The page's data: operations and findings as arrays (positions documented in audit-html/app.js). */
function pageData(model: AuditModel, opts: HtmlOptions): unknown {
  const s = new Strings();
  const files = [...new Set(model.operations.map((o) => o.source.file))].sort();
  for (const d of model.diagnostics) if (d.file !== null && !files.includes(d.file)) files.push(d.file);
  const fileIndex = new Map(files.map((f, i) => [f, i]));
  const owners = findingOwners(model);
  const findingsOf = new Map<number, number[]>();
  owners.forEach((op, i) => {
    if (op !== null) findingsOf.set(op, [...(findingsOf.get(op) ?? []), i]);
  });
  const reason = (o: AuditOperation) => (r: AuditOperation['reasons'][number]) => [
    s.id(r.rule),
    s.id(r.detail),
    r.pointer === undefined ? null : r.pointer === o.source.pointer ? 0 : r.pointer,
    r.signals ?? [],
  ];
  const ops = model.operations.map((o, i) => [
    o.key,
    o.name,
    fileIndex.get(o.source.file),
    o.source.pointer,
    opts.lines?.get(opId(o.source.file, o.key)) ?? '',
    o.effect === 'write' ? 1 : 0,
    CLASSES.indexOf(o.class),
    MECHANISMS.indexOf(o.mechanism),
    s.id(mechanismText(o)),
    o.carrier,
    o.keyStrategy,
    o.ttlSeconds ?? null,
    s.id(ttlText(o.ttlSeconds)),
    o.compensation ?? null,
    [...o.effectReasons, ...o.reasons].map(reason(o)),
    (opts.tags?.get(opId(o.source.file, o.key)) ?? []).map((t) => s.id(t)),
    findingsOf.get(i) ?? [],
  ]);
  const findings = model.diagnostics.map((d, i) => [
    s.id(d.code),
    SEVERITIES.indexOf(d.severity),
    d.file === null ? null : fileIndex.get(d.file),
    d.pointer,
    d.line,
    d.message,
    d.hint === undefined ? null : s.id(d.hint),
    owners[i],
  ]);
  return {
    strings: s.list,
    files: files.map((f) => [f, opts.fileHref ? opts.fileHref(f) : encodeURI(f).replace(/#/g, '%23')]),
    classes: CLASSES,
    mechanisms: MECHANISMS,
    severities: SEVERITIES,
    ops,
    findings,
  };
}

/** A pattern per bar so the chart reads without colour (and printed in black and white). */
const PATTERNS = ['solid', 'hatch', 'dots', 'cross', 'vertical', 'horizontal', 'grid', 'diagonal'];

function patternDefs(): string {
  const p = (id: string, body: string) =>
    `<pattern id="p-${id}" width="8" height="8" patternUnits="userSpaceOnUse">${body}</pattern>`;
  const bg = '<rect width="8" height="8" class="pbg"/>';
  return `<defs>${[
    p('solid', '<rect width="8" height="8" class="pfg"/>'),
    p('hatch', `${bg}<path d="M0 8L8 0" class="pline"/>`),
    p('dots', `${bg}<circle cx="4" cy="4" r="1.6" class="pfg"/>`),
    p('cross', `${bg}<path d="M0 0L8 8M8 0L0 8" class="pline"/>`),
    p('vertical', `${bg}<path d="M4 0V8" class="pline"/>`),
    p('horizontal', `${bg}<path d="M0 4H8" class="pline"/>`),
    p('grid', `${bg}<path d="M0 0H8V8" class="pline"/>`),
    p('diagonal', `${bg}<path d="M0 0L8 8" class="pline"/>`),
  ].join('')}</defs>`;
}

/** A horizontal bar chart: a label, a patterned bar and its count on each row (text carries the meaning). */
function barChart(title: string, rows: { label: string; count: number; pattern: string }[]): string {
  const max = Math.max(1, ...rows.map((r) => r.count));
  const total = rows.reduce((n, r) => n + r.count, 0);
  const rowH = 26;
  const labelW = 230;
  const barW = 360;
  const h = rows.length * rowH + 8;
  const bars = rows
    .map((r, i) => {
      const y = i * rowH + 4;
      const w = r.count === 0 ? 0 : Math.max(2, Math.round((r.count / max) * barW));
      const pct = total === 0 ? 0 : Math.round((r.count / total) * 1000) / 10;
      return (
        `<g><text x="${labelW - 8}" y="${y + 15}" text-anchor="end">${htmlText(r.label)}</text>` +
        `<rect x="${labelW}" y="${y}" width="${w}" height="18" fill="url(#p-${r.pattern})" class="bar"/>` +
        `<text x="${labelW + w + 6}" y="${y + 15}">${r.count} (${pct}%)</text></g>`
      );
    })
    .join('');
  const desc = rows.map((r) => `${r.label}: ${r.count}`).join('; ');
  return `<figure class="chart"><figcaption>${htmlText(title)}</figcaption><svg role="img" aria-label="${htmlText(`${title}: ${desc}`)}" viewBox="0 0 ${labelW + barW + 90} ${h}" width="${labelW + barW + 90}" height="${h}">${patternDefs()}${bars}</svg></figure>`;
}

function summarySection(model: AuditModel): string {
  const t = model.totals;
  const writes = model.operations.filter((o) => o.effect === 'write');
  const classRows = CLASSES.map((c: OperationClass, i) => ({
    label: c,
    count: t.class[c],
    pattern: PATTERNS[i % PATTERNS.length]!,
  }));
  const mechRows = MECHANISMS.map((m: Mechanism, i) => ({
    label: mechanismTextOf(m),
    count: t.mechanism[m],
    pattern: PATTERNS[i % PATTERNS.length]!,
  }));
  const sevRows = SEVERITIES.map((sv, i) => ({
    label: `${SEVERITY_MARK[sv]} ${sv}`,
    count: t.diagnostics[sv],
    pattern: PATTERNS[i]!,
  }));
  const unsafe = writes.filter((o) => o.mechanism === 'fail-closed').length;
  return [
    '<section id="panel-summary" role="tabpanel" aria-labelledby="tab-summary" tabindex="0">',
    `<p class="lead"><strong>${t.operations}</strong> operations: <strong>${t.effect.write}</strong> write, <strong>${t.effect.read}</strong> read-only. <strong>${unsafe}</strong> writes fail closed (an agent cannot retry them safely after an unknown outcome). Findings: ${SEVERITIES.map((sv) => `${SEVERITY_MARK[sv]} ${t.diagnostics[sv]} ${sv}`).join(', ')}.</p>`,
    '<div class="charts">',
    barChart('Operations by mechanism', mechRows),
    barChart('Operations by class', classRows),
    barChart('Findings by severity', sevRows),
    '</div>',
    classMechanismTable(model),
    '</section>',
  ].join('\n');
}

function mechanismTextOf(m: Mechanism): string {
  const alias = MECHANISM_LEGEND[m].alias;
  return alias ? `${m} (${alias})` : m;
}

/** Class × mechanism counts: the chart's numbers as a table (what a screen reader or a copy-paste reads). */
function classMechanismTable(model: AuditModel): string {
  const count = new Map<string, number>();
  for (const o of model.operations)
    count.set(`${o.class}|${o.mechanism}`, (count.get(`${o.class}|${o.mechanism}`) ?? 0) + 1);
  const mechs = MECHANISMS.filter((m) => model.totals.mechanism[m] > 0);
  const rows = CLASSES.filter((c) => model.totals.class[c] > 0).map(
    (c) =>
      `<tr><th scope="row">${htmlText(c)}</th>${mechs.map((m) => `<td>${count.get(`${c}|${m}`) ?? 0}</td>`).join('')}<td>${model.totals.class[c]}</td></tr>`,
  );
  return `<table class="grid"><caption>Operations by class (rows) and mechanism (columns)</caption><thead><tr><th scope="col">class</th>${mechs.map((m) => `<th scope="col">${htmlText(m)}</th>`).join('')}<th scope="col">total</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function findingsSection(model: AuditModel): string {
  const byRule = new Map<string, Record<Severity, number>>();
  for (const d of model.diagnostics) {
    const c = byRule.get(d.code) ?? { error: 0, warning: 0, info: 0 };
    c[d.severity]++;
    byRule.set(d.code, c);
  }
  const rows = [...byRule]
    .sort(([a, x], [b, y]) => y.error - x.error || y.warning - x.warning || y.info - x.info || (a < b ? -1 : 1))
    .map(([code, c]) => {
      const meta = RULE_BY_ID.get(code);
      const found = SEVERITIES.filter((sv) => c[sv] > 0)
        .map((sv) => `${SEVERITY_MARK[sv]} ${c[sv]} ${sv}`)
        .join(', ');
      const severity = meta ? severityText(meta) : 'as found (reading or generating, not a classification rule)';
      return `<tr><th scope="row"><code>${htmlText(code)}</code></th><td>${found}</td><td>${htmlText(severity)}</td><td>${htmlText(meta?.description ?? '')}</td><td><button type="button" class="show-rule" data-rule="${htmlText(code)}">Show operations</button></td></tr>`;
    });
  const body =
    rows.length === 0
      ? '<p>No findings.</p>'
      : `<table class="grid rules"><caption>Findings by rule</caption><thead><tr><th scope="col">rule</th><th scope="col">found</th><th scope="col">default severity</th><th scope="col">what it means</th><th scope="col"></th></tr></thead><tbody>${rows.join('')}</tbody></table><div id="file-findings"></div>`;
  return `<section id="panel-findings" role="tabpanel" aria-labelledby="tab-findings" tabindex="0" hidden>\n${body}\n</section>`;
}

function changesSection(c: AuditChanges): string {
  const summary = CHANGE_KINDS.map(
    (k) =>
      `<tr><th scope="row"><code>${k}</code></th><td>${c.counts[k]}</td><td>${htmlText(CHANGE_TITLES[k])}</td></tr>`,
  ).join('');
  const groups = CHANGE_KINDS.map((k) => {
    const list = changesOf(c, k);
    if (list.length === 0) return '';
    const rows = list
      .map((x) => `<tr><td><code>${htmlText(x.key)}</code></td><td>${htmlText(transitionText(x))}</td></tr>`)
      .join('');
    return `<details class="change" data-kind="${k}"><summary>${k}: ${list.length} — ${htmlText(CHANGE_TITLES[k])}</summary><table class="grid"><thead><tr><th scope="col">operation</th><th scope="col">before → after</th></tr></thead><tbody>${rows}</tbody></table></details>`;
  }).join('\n');
  return [
    '<section id="panel-changes" role="tabpanel" aria-labelledby="tab-changes" tabindex="0" hidden>',
    `<p class="lead">Compared with <code>${htmlText(c.baseline)}</code>: ${c.operations.before} → ${c.operations.after} operations, ${c.changes.length} changed for retry safety, ${c.operations.addedReads} new reads.</p>`,
    `<table class="grid"><caption>Changes by kind</caption><thead><tr><th scope="col">change</th><th scope="col">operations</th><th scope="col">what it means</th></tr></thead><tbody>${summary}</tbody></table>`,
    groups,
    '</section>',
  ].join('\n');
}

function legendList(title: string, entries: readonly LegendEntry[]): string {
  const items = entries
    .map(
      (e) =>
        `<dt><code>${htmlText(e.term)}</code>${e.alias ? ` <span class="alias">(${htmlText(e.alias)})</span>` : ''}</dt><dd>${htmlText(e.text)} <span class="see">docs/concepts.md#${htmlText(e.see)}</span></dd>`,
    )
    .join('');
  return `<h3>${htmlText(title)}</h3><dl>${items}</dl>`;
}

function legendSection(): string {
  return [
    '<section id="panel-legend" role="tabpanel" aria-labelledby="tab-legend" tabindex="0" hidden>',
    '<p>Every write gets one mechanism; the classifier asks in this order and takes the first that holds: does the API take a key (native-key)? Is the store ours (dedup-table, content-address, unique-insert)? Is there an inverse (saga)? Does the method make a repeat harmless (method-idempotent)? Otherwise the write fails closed. The OP-n aliases are the numbers older config still accepts.</p>',
    legendList('Mechanisms', Object.values(MECHANISM_LEGEND)),
    legendList('Classes', Object.values(CLASS_LEGEND)),
    legendList('Key strategies', Object.values(KEY_STRATEGY_LEGEND)),
    legendList('Other words', CARRIER_LEGEND),
    '</section>',
  ].join('\n');
}

function operationsSection(): string {
  return `<section id="panel-operations" role="tabpanel" aria-labelledby="tab-operations" tabindex="0" hidden>
<form id="filters" class="filters" role="search" onsubmit="return false">
<label>Search <input type="search" id="f-search" placeholder="key or name" autocomplete="off"></label>
<label>Path <input type="text" id="f-path" placeholder="/v1/charges" autocomplete="off"></label>
<label>Effect <select id="f-effect"><option value="">any</option><option value="write">write</option><option value="read">read</option></select></label>
<label>Mechanism <select id="f-mechanism"><option value="">any</option></select></label>
<label>Class <select id="f-class"><option value="">any</option></select></label>
<label>Finding <select id="f-finding"><option value="">any</option><option value="*">with a finding</option><option value="-">without findings</option></select></label>
<label>Tag <select id="f-tag"><option value="">any</option></select></label>
<button type="reset" id="f-reset">Clear filters</button>
</form>
<p id="count" role="status" aria-live="polite"></p>
<div class="ops" id="ops" role="list" aria-label="operations">
<div class="op-head" aria-hidden="true"><span>operation</span><span>class</span><span>mechanism</span><span>key carrier</span><span>findings</span></div>
</div>
<p id="more-host"><button type="button" id="more" hidden>Show more</button></p>
</section>`;
}

export function renderHtml(model: AuditModel, opts: HtmlOptions = {}): string {
  assets ??= {
    css: readFileSync(new URL('audit.css', ASSETS), 'utf8'),
    js: readFileSync(new URL('audit.js', ASSETS), 'utf8'),
  };
  const changes = opts.changes;
  const tabs = [
    ['summary', 'Summary'],
    ['operations', `Operations (${model.operations.length})`],
    ['findings', `Findings (${model.diagnostics.length})`],
    ...(changes ? [['changes', `Changes (${changes.changes.length})`]] : []),
    ['legend', 'Legend'],
  ];
  const tabButtons = tabs
    .map(
      ([id, label], i) =>
        `<button type="button" role="tab" id="tab-${id}" aria-controls="panel-${id}" aria-selected="${i === 0}" tabindex="${i === 0 ? 0 : -1}">${htmlText(label!)}</button>`,
    )
    .join('');
  const version = opts.toolVersion ? ` ${htmlText(opts.toolVersion)}` : '';
  const files = [...new Set(model.operations.map((o) => o.source.file))].sort();
  const title = files.length === 1 ? `idemgen audit: ${files[0]}` : `idemgen audit: ${files.length} sources`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
<meta name="generator" content="idemgen${version}">
<title>${htmlText(title)}</title>
<style>
${assets.css}</style>
</head>
<body>
<header><h1>${htmlText(title)}</h1><p class="sub">Retry safety of every operation: which writes an agent may repeat, and why. Generated by idemgen${version}.</p></header>
<nav><div role="tablist" aria-label="report sections">${tabButtons}</div></nav>
<main>
${summarySection(model)}
${operationsSection()}
${findingsSection(model)}
${changes ? changesSection(changes) : ''}
${legendSection()}
</main>
<script type="application/json" id="audit-data">${scriptJson(pageData(model, opts))}</script>
<script>
${assets.js}</script>
</body>
</html>
`;
}
