export * from '@idemgen/runtime/postgres';
