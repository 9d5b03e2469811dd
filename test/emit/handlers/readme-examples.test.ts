/**
 * The README's "Safe tools for your agent" examples type-check under --strict against the committed
 * generated/ handler module and the real `ai` / `openai` types (a copy-paste example that does not compile
 * is a bug). Only the free variables a reader brings (`model`, `prompt`, `openai`, `messages`) are declared.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { OUT_ROOT, typeCheck, writeBatch } from '../client/helpers/compile.js';

const ROOT = join(import.meta.dirname, '../../..');

function blockAfter(readme: string, marker: string): string {
  const at = readme.indexOf(marker);
  const start = readme.indexOf('```ts\n', at) + 6;
  return readme.slice(start, readme.indexOf('```', start));
}

it('the AI SDK and OpenAI examples compile', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const ai = blockAfter(readme, '**Vercel AI SDK**');
  const openai = blockAfter(readme, '**OpenAI** Chat Completions');
  const source = [
    "import type { LanguageModel } from 'ai';",
    "import OpenAI from 'openai';",
    "import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';",
    ...ai.split('\n').filter((l) => l.startsWith('import')),
    ...openai.split('\n').filter((l) => l.startsWith('import')),
    'declare const model: LanguageModel;',
    'declare const prompt: string;',
    'declare const openai: OpenAI;',
    'declare const messages: ChatCompletionMessageParam[];',
    ...ai.split('\n').filter((l) => !l.startsWith('import')),
    'void text;',
    ...openai.split('\n').filter((l) => !l.startsWith('import')),
  ].join('\n');
  const paths = writeBatch('readme', new Map([['example.ts', source]]));
  mkdirSync(join(OUT_ROOT, 'readme/generated/handlers'), { recursive: true });
  const gen = join(OUT_ROOT, 'readme/generated/handlers/messaging.tools.gen.ts');
  writeFileSync(gen, readFileSync(join(ROOT, 'generated/handlers/messaging.tools.gen.ts'), 'utf8'));
  expect(ai.split('\n').filter((l) => l.trim() !== '').length).toBeLessThan(10);
  expect(openai.split('\n').filter((l) => l.trim() !== '').length).toBeLessThan(10);
  expect(Object.fromEntries(typeCheck(paths))).toEqual({ 'example.ts': [] });
});
