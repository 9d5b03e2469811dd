// The audit report's script (inlined by src/emit/report/html.ts). Spec text is set with textContent only.
// Data (the <script id="audit-data"> JSON): strings[] interned; files[i] = [path, href];
// ops[i] = [key, name, file, pointer, line, write(0|1), class, mechanism, mechanismText, carrier, keyStrategy,
//           ttlSeconds, ttlText, compensation, reasons[[rule, detail, pointer(0 = the operation's), signals]],
//           tags[], findings[]]
// findings[i] = [rule, severity, file, pointer, line, message, hint, operation]
(() => {
  const started = performance.now();
  const data = JSON.parse(document.getElementById('audit-data').textContent);
  const S = data.strings;
  const CHUNK = 150;
  const O = {
    key: 0,
    name: 1,
    file: 2,
    pointer: 3,
    line: 4,
    write: 5,
    cls: 6,
    mech: 7,
    mechText: 8,
    carrier: 9,
    strategy: 10,
    ttl: 11,
    ttlText: 12,
    undo: 13,
    reasons: 14,
    tags: 15,
    findings: 16,
  };

  function el(tag, props, ...children) {
    const node = document.createElement(tag);
    if (props) {
      for (const [k, v] of Object.entries(props)) {
        if (k === 'text') node.textContent = v;
        else if (k === 'className') node.className = v;
        else node.setAttribute(k, v);
      }
    }
    for (const c of children) if (c !== null && c !== undefined) node.append(c);
    return node;
  }

  // Tabs: arrow keys move between them, Enter/Space (a button) selects.
  const tabs = [...document.querySelectorAll('[role="tab"]')];
  function selectTab(tab, focus) {
    for (const t of tabs) {
      const on = t === tab;
      t.setAttribute('aria-selected', String(on));
      t.tabIndex = on ? 0 : -1;
      document.getElementById(t.getAttribute('aria-controls')).hidden = !on;
    }
    if (focus) tab.focus();
  }
  for (const [i, t] of tabs.entries()) {
    t.addEventListener('click', () => selectTab(t, false));
    t.addEventListener('keydown', (e) => {
      const step = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
      if (step !== 0) {
        e.preventDefault();
        selectTab(tabs[(i + step + tabs.length) % tabs.length], true);
      }
    });
  }

  // Filter options from the data.
  const f = {
    search: document.getElementById('f-search'),
    path: document.getElementById('f-path'),
    effect: document.getElementById('f-effect'),
    mechanism: document.getElementById('f-mechanism'),
    cls: document.getElementById('f-class'),
    finding: document.getElementById('f-finding'),
    tag: document.getElementById('f-tag'),
  };
  const mechCount = new Map();
  const classCount = new Map();
  const ruleCount = new Map();
  const tagCount = new Map();
  const bump = (m, k) => m.set(k, (m.get(k) || 0) + 1);
  for (const op of data.ops) {
    bump(mechCount, op[O.mech]);
    bump(classCount, op[O.cls]);
    for (const t of op[O.tags]) bump(tagCount, t);
    for (const r of new Set(op[O.findings].map((i) => data.findings[i][0]))) bump(ruleCount, r);
  }
  const options = (select, entries) => {
    for (const [value, label] of entries) select.append(el('option', { value: String(value), text: label }));
  };
  options(
    f.mechanism,
    data.mechanisms.map((m, i) => [i, `${m} (${mechCount.get(i) || 0})`]).filter((_, i) => mechCount.get(i)),
  );
  options(
    f.cls,
    data.classes.map((c, i) => [i, `${c} (${classCount.get(i) || 0})`]).filter((_, i) => classCount.get(i)),
  );
  options(
    f.finding,
    [...ruleCount].sort((a, b) => (S[a[0]] < S[b[0]] ? -1 : 1)).map(([r, n]) => [r, `${S[r]} (${n})`]),
  );
  options(
    f.tag,
    [...tagCount].sort((a, b) => (S[a[0]] < S[b[0]] ? -1 : 1)).map(([t, n]) => [t, `${S[t]} (${n})`]),
  );
  if (tagCount.size === 0) f.tag.disabled = true;

  function matches(op) {
    const q = f.search.value.trim().toLowerCase();
    if (q && !op[O.key].toLowerCase().includes(q) && !op[O.name].toLowerCase().includes(q)) return false;
    const p = f.path.value.trim().toLowerCase();
    if (p) {
      const space = op[O.key].indexOf(' ');
      const path = space >= 0 ? op[O.key].slice(space + 1) : op[O.key];
      if (!path.toLowerCase().includes(p)) return false;
    }
    if (f.effect.value && (f.effect.value === 'write') !== (op[O.write] === 1)) return false;
    if (f.mechanism.value !== '' && op[O.mech] !== Number(f.mechanism.value)) return false;
    if (f.cls.value !== '' && op[O.cls] !== Number(f.cls.value)) return false;
    const fv = f.finding.value;
    if (fv === '*' && op[O.findings].length === 0) return false;
    if (fv === '-' && op[O.findings].length > 0) return false;
    if (fv !== '' && fv !== '*' && fv !== '-') {
      const rule = Number(fv);
      if (!op[O.findings].some((i) => data.findings[i][0] === rule)) return false;
    }
    if (f.tag.value !== '' && !op[O.tags].includes(Number(f.tag.value))) return false;
    return true;
  }

  const list = document.getElementById('ops');
  const more = document.getElementById('more');
  const count = document.getElementById('count');
  let shown = [];
  let rendered = 0;

  function carrierText(c) {
    if (!c) return '—';
    return `${c.in} ${c.name}${c.maxLength !== undefined ? ` (≤ ${c.maxLength})` : ''}`;
  }

  function row(index) {
    const op = data.ops[index];
    const n = op[O.findings].length;
    const worst = n === 0 ? -1 : Math.min(...op[O.findings].map((i) => data.findings[i][1]));
    const details = el('details', { className: 'op', role: 'listitem', 'data-index': String(index) });
    details.dataset.mech = data.mechanisms[op[O.mech]];
    const findingText = n === 0 ? '—' : `${n} ${data.severities[worst]}${n > 1 ? ' or lower' : ''}`;
    details.append(
      el(
        'summary',
        null,
        el('span', { className: 'key', text: op[O.key] }),
        el('span', { className: 'cls', text: data.classes[op[O.cls]] }),
        el('span', { className: 'mech', text: S[op[O.mechText]] }),
        el('span', { className: 'carrier', text: carrierText(op[O.carrier]) }),
        el('span', { className: n === 0 ? 'fnd' : `fnd sev sev-${data.severities[worst]}`, text: findingText }),
      ),
    );
    details.addEventListener('toggle', () => {
      if (details.open && !details.querySelector('.op-body')) details.append(body(op));
    });
    return details;
  }

  // The paste-ready override: JSON, which is also YAML, so it fits either config format.
  function override(op) {
    const o = {};
    if (op[O.write] === 0) o.effect = 'read';
    else {
      o.mechanism = data.mechanisms[op[O.mech]];
      const c = op[O.carrier];
      if (c) {
        o.carrier = { in: c.in, name: c.name };
        if (c.maxLength !== undefined) o.carrier.maxLength = c.maxLength;
      }
      if (op[O.strategy]) o.keyStrategy = op[O.strategy];
      if (op[O.ttl] !== null) o.ttlSeconds = op[O.ttl];
      if (op[O.undo] !== null) o.compensation = op[O.undo];
    }
    return `overrides:\n  ${JSON.stringify(op[O.key])}: ${JSON.stringify(o)}`;
  }

  async function copy(text, button) {
    let ok = false;
    try {
      await navigator.clipboard.writeText(text);
      ok = true;
    } catch {
      const area = el('textarea', { 'aria-hidden': 'true' });
      area.value = text;
      document.body.append(area);
      area.select();
      ok = document.execCommand('copy');
      area.remove();
    }
    button.textContent = ok ? 'Copied' : 'Select the text to copy';
    setTimeout(() => {
      button.textContent = 'Copy override';
    }, 1500);
  }

  function body(op) {
    const out = el('div', { className: 'op-body' });
    const file = data.files[op[O.file]];
    const where = `${file[0]}${op[O.line] ? `:${op[O.line]}` : ''}`;
    out.append(
      el(
        'p',
        null,
        el('strong', { text: op[O.name] }),
        ' · ',
        op[O.write] === 1 ? 'write' : 'read',
        ' · spec: ',
        el('a', { href: file[1], text: where }),
        ' ',
        el('code', { text: op[O.pointer] }),
      ),
    );
    out.append(el('h4', { text: 'Why (reasons, in the order the classifier decided)' }));
    const reasons = el('ul', { className: 'reasons' });
    for (const [rule, detail, pointer, signals] of op[O.reasons]) {
      const li = el('li', null, el('code', { text: S[rule] }), `: ${S[detail]}`);
      if (pointer !== 0 && pointer !== null) li.append(' ', el('span', { className: 'muted', text: `at ${pointer}` }));
      if (signals.length > 0) {
        const ul = el('ul', { className: 'signals' });
        for (const s of signals) ul.append(el('li', { text: s }));
        li.append(el('div', { text: 'Evidence signals:' }), ul);
      }
      reasons.append(li);
    }
    out.append(reasons);
    out.append(el('h4', { text: 'Key' }));
    const keyList = el('ul');
    keyList.append(el('li', { text: `carrier: ${carrierText(op[O.carrier])}` }));
    if (op[O.carrier]?.firstSent) keyList.append(el('li', { text: `first-sent header: ${op[O.carrier].firstSent}` }));
    keyList.append(el('li', { text: `key strategy: ${op[O.strategy] || '—'}` }));
    keyList.append(el('li', { text: `TTL: ${S[op[O.ttlText]]}` }));
    if (op[O.undo] !== null) keyList.append(el('li', { text: `undo with: ${op[O.undo]}` }));
    out.append(keyList);
    if (op[O.tags].length > 0) out.append(el('p', { text: `tags: ${op[O.tags].map((t) => S[t]).join(', ')}` }));
    if (op[O.findings].length > 0) {
      out.append(el('h4', { text: 'Findings' }));
      const ul = el('ul', { className: 'findings' });
      for (const i of op[O.findings]) {
        const [rule, sev, , , line, message, hint] = data.findings[i];
        const li = el(
          'li',
          null,
          el('span', { className: `sev sev-${data.severities[sev]}`, text: data.severities[sev] }),
          ' ',
          el('code', { text: S[rule] }),
          `${line ? ` (line ${line})` : ''}: ${message}`,
        );
        if (hint !== null) li.append(el('div', { className: 'muted', text: `hint: ${S[hint]}` }));
        ul.append(li);
      }
      out.append(ul);
    }
    out.append(el('h4', { text: 'Override (paste into idemgen.config under overrides to pin or change this)' }));
    const text = override(op);
    const pre = el('pre', { text });
    const button = el('button', { type: 'button', className: 'copy', text: 'Copy override' });
    button.addEventListener('click', () => copy(text, button));
    out.append(pre, button);
    return out;
  }

  function renderMore() {
    const end = Math.min(shown.length, rendered + CHUNK);
    const frag = document.createDocumentFragment();
    for (let i = rendered; i < end; i++) frag.append(row(shown[i]));
    list.append(frag);
    rendered = end;
    more.hidden = rendered >= shown.length;
    more.textContent = `Show ${Math.min(CHUNK, shown.length - rendered)} more (${shown.length - rendered} left)`;
  }

  function apply() {
    shown = [];
    for (let i = 0; i < data.ops.length; i++) if (matches(data.ops[i])) shown.push(i);
    for (const node of list.querySelectorAll('.op')) node.remove();
    rendered = 0;
    count.textContent = `${shown.length} of ${data.ops.length} operations`;
    renderMore();
  }

  let timer;
  const later = () => {
    clearTimeout(timer);
    timer = setTimeout(apply, 120);
  };
  f.search.addEventListener('input', later);
  f.path.addEventListener('input', later);
  for (const s of [f.effect, f.mechanism, f.cls, f.finding, f.tag]) s.addEventListener('change', apply);
  document.getElementById('filters').addEventListener('reset', () => setTimeout(apply, 0));
  more.addEventListener('click', renderMore);
  // Scrolling near the end renders the next chunk too.
  if ('IntersectionObserver' in window) {
    new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting) && rendered < shown.length) renderMore();
    }).observe(more);
  }

  for (const b of document.querySelectorAll('.show-rule')) {
    b.addEventListener('click', () => {
      const rule = S.indexOf(b.dataset.rule);
      document.getElementById('filters').reset();
      f.finding.value = String(rule);
      apply();
      selectTab(document.getElementById('tab-operations'), true);
    });
  }

  // Findings no operation owns (a file-level problem): listed under the rule table.
  const loose = data.findings.filter((d) => d[7] === null);
  const host = document.getElementById('file-findings');
  if (host && loose.length > 0) {
    host.append(el('h3', { text: `Findings not tied to one operation (${loose.length})` }));
    const ul = el('ul');
    for (const [rule, sev, file, pointer, line, message, hint] of loose) {
      const where = file === null ? '' : `${data.files[file][0]}${line ? `:${line}` : ''} `;
      const li = el(
        'li',
        null,
        el('span', { className: `sev sev-${data.severities[sev]}`, text: data.severities[sev] }),
        ' ',
        el('code', { text: S[rule] }),
        ` ${where}${pointer ? `(${pointer}) ` : ''}${message}`,
      );
      if (hint !== null) li.append(el('div', { className: 'muted', text: `hint: ${S[hint]}` }));
      ul.append(li);
    }
    host.append(ul);
  }

  apply();
  // Milliseconds since navigation start when the page became usable, and how much of that was this script.
  document.documentElement.dataset.ready = String(Math.round(performance.now()));
  document.documentElement.dataset.scriptMs = String(Math.round(performance.now() - started));
})();
