// `idemgen/runtime/sqlite` is @idemgen/runtime/sqlite (one copy, so instanceof checks hold across both names).
export * from '@idemgen/runtime/sqlite';
