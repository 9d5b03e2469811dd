/**
 * SOP Step 3 naming: the key for `operation` lives in the agent state field `{operation}_idempotency_key`.
 * Dependency-free so the audit (pure core) can name the same field the runtime reads.
 */
export function stateKeyField(operation: string): string {
  const base = operation
    .replace(/^tool:/, '')
    .replace(/[^A-Za-z0-9_]+/g, '_')
    .replace(/^_+|_+$/g, '');
  return `${base === '' ? 'operation' : base}_idempotency_key`;
}
