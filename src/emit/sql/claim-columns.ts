/**
 * The columns the claim statement writes, in bind order. A claim is the first-call insert of a
 * `pending` row (DESIGN §5): the unique (scope, idempotency_key) primary key makes it atomic.
 */
export const CLAIM_COLUMNS = [
  'scope',
  'idempotency_key',
  'operation',
  'args_hash',
  'mechanism',
  'lease_token',
  'lease_expires_at',
  'created_at',
  'expires_at',
  'args_summary',
] as const;

/** Placeholder text for the OP-4 example: the owned table's own columns are not known here. */
export const OWNED_EXAMPLE_COLUMNS = '<your columns>';
export const OWNED_EXAMPLE_VALUES = '<your values>';
