export * from '@idemgen/runtime/conformance';
