// `idemgen/runtime/postgres` is @idemgen/runtime/postgres (one copy, so instanceof checks hold across both names).
export * from '@idemgen/runtime/postgres';
