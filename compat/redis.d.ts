export * from '@idemgen/runtime/redis';
