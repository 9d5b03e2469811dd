// `idemgen/runtime/tools` is @idemgen/runtime/tools (one copy, so instanceof checks hold across both names).
export * from '@idemgen/runtime/tools';
