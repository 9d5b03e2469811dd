/**
 * The ts-morph values the client emitter uses, loaded with `require`. An ESM `import` of a CommonJS
 * package makes Node scan it for export names first (cjs-module-lexer), following its re-exports into
 * @ts-morph/common — megabytes of bundled TypeScript scanned on every `generate` (~0.2–1 s, and memory).
 * Types still come from `import type { … } from 'ts-morph'`; only values go through this module.
 */
import { createRequire } from 'node:module';
import type * as TsMorph from 'ts-morph';

const tsMorph = createRequire(import.meta.url)('ts-morph') as typeof TsMorph;

export const { CodeBlockWriter, StructureKind, printStructure } = tsMorph;
