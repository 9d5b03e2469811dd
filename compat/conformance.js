// `idemgen/runtime/conformance` is @idemgen/runtime/conformance (one copy, so instanceof checks hold across both names).
export * from '@idemgen/runtime/conformance';
