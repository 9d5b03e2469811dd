export * from '@idemgen/runtime';
