/**
 * The limits of an idempotency key, in one place: the key argument's schema (tools/key-argument.ts) states all
 * three to the model; `validateKey` (core/keys.ts) enforces the lengths and accepts any printable ASCII, the
 * space included, so a key from a caller that is not a model is not refused for a space.
 */

/** Visible ASCII (0x21–0x7E): safe as an HTTP header value and as a SQL key, no whitespace to trim. */
export const KEY_CHARS = '[!-~]';
/** The shortest key: long enough that a model's "retry" cannot collide with another action's key by accident. */
export const KEY_MIN_LENGTH = 16;
/** The longest key (a carrier's own limit may be smaller: Stripe's is 255, some are 64). */
export const KEY_MAX_LENGTH = 255;
