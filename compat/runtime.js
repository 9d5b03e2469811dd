// `idemgen/runtime` is @idemgen/runtime (one copy, so instanceof checks hold across both names).
export * from '@idemgen/runtime';
