import { keySlotName } from '../core/keys.js';

/**
 * docs/concepts.md#keys-and-scopes naming: the key for `operation` lives in the agent state field `{operation}_idempotency_key`
 * (`tool:send_email` → `send_email_idempotency_key`). One spelling for the runtime and the audit:
 * the runtime's `keySlotName`.
 */
export function stateKeyField(operation: string): string {
  return keySlotName(operation);
}
