/**
 * The TypeScript examples of the README and its guides (docs/guides/*.md) type-check under --strict against the committed generated/ modules and
 * the real `ai` / `openai` types (a copy-paste example that does not compile is a bug): the generated
 * client's usage and error typing, the AI SDK and OpenAI tool loops and the intent key source. The MCP
 * example is compiled and run by test/emit/mcp/twilio-glue.test.ts. Only the free variables a reader
 * brings (`model`, `prompt`, `openai`, `messages`, `threadId`…) are declared. Every ```ts block of the
 * README and of the guides must be one of these, so a new example cannot go untested.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { OUT_ROOT, typeCheck, writeBatch } from '../client/helpers/compile.js';

const ROOT = join(import.meta.dirname, '../../..');
const GUIDES = join(ROOT, 'docs/guides');
/** The README and every guide, one text: the markers below are unique across them. */
const README = [
  readFileSync(join(ROOT, 'README.md'), 'utf8'),
  ...readdirSync(GUIDES)
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => readFileSync(join(GUIDES, f), 'utf8')),
].join('\n');

/** Where the `nth` ```ts block after `marker` starts, and its text. */
function blockAfter(marker: string, nth = 0): { start: number; text: string } {
  let start = README.indexOf(marker);
  expect(start, marker).toBeGreaterThanOrEqual(0);
  for (let i = 0; i <= nth; i += 1) start = README.indexOf('```ts\n', start + 1);
  const from = start + 6;
  return { start, text: README.slice(from, README.indexOf('```', from)) };
}

const EXAMPLES = {
  client: () => blockAfter('## Using a generated client'),
  clientErrors: () => blockAfter('## Using a generated client', 1),
  aiSdk: () => blockAfter('**Vercel AI SDK**'),
  openai: () => blockAfter('**OpenAI** Chat Completions'),
  keySource: () => blockAfter('**Where the key comes from.**'),
  mcp: () => blockAfter('**MCP** (`@idemgen/runtime/mcp`)'), // twilio-glue.test.ts
};

const imports = (text: string) => text.split('\n').filter((l) => l.startsWith('import'));
const body = (text: string) => text.split('\n').filter((l) => !l.startsWith('import'));

function copyGenerated(batch: string, files: string[]): void {
  for (const f of files) {
    mkdirSync(join(OUT_ROOT, batch, 'generated', f, '..'), { recursive: true });
    writeFileSync(join(OUT_ROOT, batch, 'generated', f), readFileSync(join(ROOT, 'generated', f), 'utf8'));
  }
}

it('every ```ts block of the README and the guides is one of the examples tested here or in twilio-glue', () => {
  const all: number[] = [];
  for (let at = README.indexOf('```ts\n'); at >= 0; at = README.indexOf('```ts\n', at + 1)) all.push(at);
  expect(all.sort((a, b) => a - b)).toEqual(
    Object.values(EXAMPLES)
      .map((e) => e().start)
      .sort((a, b) => a - b),
  );
});

it('the generated-client examples compile', () => {
  const client = EXAMPLES.client().text;
  const errors = EXAMPLES.clientErrors().text;
  const source = [
    ...imports(client),
    'declare const threadId: string;',
    'declare const turnId: string;',
    'declare const chargeKeyFromState: string;',
    ...body(client),
    'void result; void wasReplay;',
    ...body(errors),
  ].join('\n');
  const paths = writeBatch('readme-client', new Map([['example.ts', source]]));
  copyGenerated('readme-client', ['client/messaging.gen.ts', 'client/payments.gen.ts']);
  expect(Object.fromEntries(typeCheck(paths))).toEqual({ 'example.ts': [] });
});

it('the AI SDK, OpenAI and intent key-source examples compile', () => {
  const ai = EXAMPLES.aiSdk().text;
  const openai = EXAMPLES.openai().text;
  const keySource = EXAMPLES.keySource().text;
  const source = [
    "import type { LanguageModel } from 'ai';",
    "import OpenAI from 'openai';",
    "import type { ChatCompletionMessage, ChatCompletionMessageParam } from 'openai/resources/chat/completions';",
    ...imports(ai),
    ...imports(openai),
    ...imports(keySource),
    'declare const model: LanguageModel;',
    'declare const prompt: string;',
    'declare const openai: OpenAI;',
    'declare const messages: ChatCompletionMessageParam[];',
    ...body(ai),
    'void text;',
    ...body(openai),
    '{',
    'const msg = {} as ChatCompletionMessage;',
    ...body(keySource),
    'void chatTools; void replies;',
    '}',
  ].join('\n');
  const paths = writeBatch('readme', new Map([['example.ts', source]]));
  copyGenerated('readme', ['handlers/messaging.tools.gen.ts', 'handlers/messaging.bindings.gen.ts']);
  expect(ai.split('\n').filter((l) => l.trim() !== '').length).toBeLessThan(10);
  expect(openai.split('\n').filter((l) => l.trim() !== '').length).toBeLessThan(10);
  expect(Object.fromEntries(typeCheck(paths))).toEqual({ 'example.ts': [] });
});
