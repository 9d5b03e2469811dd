export * from '@idemgen/runtime/openai';
