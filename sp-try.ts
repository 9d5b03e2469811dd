import { loadInputs } from './src/load/index.js';
import { validateDocument } from './src/validate/index.js';
const { docs, diagnostics } = await loadInputs(process.argv.slice(2));
for (const doc of docs) {
  const r = await validateDocument(doc, diagnostics);
  console.log(doc.file, Math.round(r.ms), 'ms');
  for (const d of r.diagnostics) console.log(`  ${d.line}:${d.col} ${d.code} ${d.pointer} ${d.message}`);
}
