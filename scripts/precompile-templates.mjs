#!/usr/bin/env node
// Part of `npm run build`, after tsc: writes dist/emit/templates.precompiled.cjs, every template under
// templates/ precompiled with the options templates/options.json gives its folder (src/emit/templates.ts
// `precompiledModule`), so a built idemgen renders them with Handlebars' runtime and never loads the compiler.
import { writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const { precompiledModule, shippedTemplates } = await import(join(root, 'dist/emit/templates.js'));
const out = join(root, 'dist/emit/templates.precompiled.cjs');
writeFileSync(out, precompiledModule());
console.log(`precompiled ${shippedTemplates().length} templates → ${relative(root, out)}`);
