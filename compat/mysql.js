// `idemgen/runtime/mysql` is @idemgen/runtime/mysql (one copy, so instanceof checks hold across both names).
export * from '@idemgen/runtime/mysql';
