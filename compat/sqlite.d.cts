export * from '@idemgen/runtime/sqlite';
