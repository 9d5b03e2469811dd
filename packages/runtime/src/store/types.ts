/**
 * The dedup store contract, as the stores and their callers import it. It is defined in core
 * (core/store-types.ts) because the dedup engine there is written against it.
 */
export * from '../core/store-types.js';
