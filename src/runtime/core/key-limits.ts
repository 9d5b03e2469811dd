/**
 * The limits of an idempotency key, in one place: `validateKey` (core/keys.ts) enforces them and the key
 * argument's schema (tools/key-argument.ts) states them to the model.
 */

/** Visible ASCII (0x21–0x7E): safe as an HTTP header value and as a SQL key, no whitespace to trim. */
export const KEY_CHARS = '[!-~]';
/** The shortest key: long enough that a model's "retry" cannot collide with another action's key by accident. */
export const KEY_MIN_LENGTH = 16;
/** The longest key (a carrier's own limit may be smaller: Stripe's is 255, some are 64). */
export const KEY_MAX_LENGTH = 255;
