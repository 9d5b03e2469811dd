// `idemgen/runtime/redis` is @idemgen/runtime/redis (one copy, so instanceof checks hold across both names).
export * from '@idemgen/runtime/redis';
