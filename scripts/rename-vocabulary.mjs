// The mechanical part of the vocabulary rename (mechanism names instead of OP-N, concepts.md instead of SOP sections), for code written before it (other branches):
//   node scripts/rename-vocabulary.mjs FILE…
// 1. quoted mechanism literals: 'OP-1' → 'native-key', 'OP-2' → 'dedup-table', 'OP-3' → 'content-address',
//    'OP-4' → 'unique-insert', 'OP-5' → 'saga', 'OP-7' → 'tool-dedup' (single or double quotes);
// 2. in comments (and whole .md files) only: "SOP §…", "SOP Step N", "SOP Case N", "SOP OP-N", "DESIGN §N"
//    → the docs/concepts.md section that says the same thing.
// Strings shown to users (rule sources, reasons) keep their SOP references; review the diff.
import { readFileSync, writeFileSync } from 'node:fs';

const C = 'docs/concepts.md';
const NAMES = {
  1: 'native-key',
  2: 'dedup-table',
  3: 'content-address',
  4: 'unique-insert',
  5: 'saga',
  7: 'tool-dedup',
};
const a = (id) => `${C}#${id}`;
const REFS = [
  [/SOP §§?\s?3,? Steps? 1[–-]3/g, a('mechanisms')],
  [/SOP Steps? [0-9][–-][0-9]/g, C],
  [/SOP §2\.1/g, a('outcomes')],
  [/SOP §2\.3/g, a('keys-and-scopes')],
  [/SOP §2\.[0-9]/g, C],
  [/SOP §1/g, a('side-effects')],
  [/SOP §[34]/g, a('mechanisms')],
  [/SOP §[57]/g, C],
  [/SOP §6/g, a('store-rules')],
  [/SOP Step 1/g, a('side-effects')],
  [/SOP Step 2/g, a('mechanisms')],
  [/SOP Step 3/g, a('keys-and-scopes')],
  [/SOP Step 4/g, a('carriers')],
  [/SOP Step 5/g, a('outcomes')],
  [/SOP Step 6/g, a('store-rules')],
  [/SOP Step 7/g, a('replay')],
  [/SOP Case 1/g, a('checkpoint-keys')],
  [/SOP Case 2/g, a('repeated-intent')],
  [/SOP Case 3/g, a('changed-arguments')],
  [/SOP Case 4/g, a('tool-dedup')],
  [/SOP decision tree/g, a('mechanisms')],
  [/SOP OP-([1-5])/g, (_, n) => `${NAMES[n]}, ${a('mechanisms')}`],
  [/SOP OP-6/g, a('checkpoint-keys')],
  [/SOP OP-7/g, a('tool-dedup')],
  [/SOP OP-8/g, C],
  [/DESIGN §2/g, a('layers')],
  [/DESIGN §[4]/g, a('mechanisms')],
  [/DESIGN §5/g, a('outcomes')],
  [/DESIGN §[367]/g, 'README.md'],
];
const LITERAL = /(['"])OP-([1-57])(['"])/g;
const refs = (t) => REFS.reduce((s, [re, to]) => s.replace(re, to), t);

for (const file of process.argv.slice(2)) {
  const before = readFileSync(file, 'utf8');
  let inBlock = false;
  const after = before
    .split('\n')
    .map((line) => {
      if (file.endsWith('.md')) return refs(line);
      const s = line.trimStart();
      let out = line.replace(LITERAL, (_, q1, n, q2) => `${q1}${NAMES[n]}${q2}`);
      const comment = inBlock || s.startsWith('/*') || s.startsWith('*') || s.startsWith('//');
      if (comment) out = refs(out);
      else if (out.includes(' // ')) {
        const i = out.indexOf(' // ');
        out = out.slice(0, i) + refs(out.slice(i));
      }
      if (s.startsWith('/*') && !s.slice(2).includes('*/')) inBlock = true;
      else if (inBlock && s.includes('*/')) inBlock = false;
      return out;
    })
    .join('\n');
  if (after !== before) {
    writeFileSync(file, after);
    console.log(`rewrote ${file}`);
  }
}
