/**
 * Write verbs that name a durable state change on their own (a subset of classify's WRITE_VERBS).
 * Softer write verbs (trigger, run, start, execute, invoke, open, set …) also name demos and local
 * actions — the reference MCP servers' `trigger-sampling-request`, `start-notification-stream` —
 * so the code and annotation rules, which cannot see the effect, only judge names built on these.
 * `toggle` is here: repeating it undoes it.
 */
export const EFFECT_VERBS: ReadonlySet<string> = new Set([
  'send', 'create', 'charge', 'post', 'write', 'publish', 'transfer', 'delete', 'update', 'notify', 'remove', 'upload',
  'cancel', 'refund', 'pay', 'book', 'insert', 'edit', 'put', 'patch', 'modify', 'replace', 'rename', 'move', 'submit',
  'approve', 'reject', 'invite', 'archive', 'revoke', 'grant', 'deploy', 'commit', 'purchase', 'order', 'buy', 'sell',
  'subscribe', 'unsubscribe', 'reply', 'comment', 'register', 'drop', 'truncate', 'destroy', 'kill', 'terminate',
  'upsert', 'append', 'email', 'sms', 'capture', 'void', 'withdraw', 'deposit', 'merge', 'restore', 'reset', 'toggle',
  'add', 'assign', 'schedule', 'reserve', 'enqueue', 'dispatch',
]);
