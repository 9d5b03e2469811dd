export * from '@idemgen/runtime/tools';
