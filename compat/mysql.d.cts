export * from '@idemgen/runtime/mysql';
