export * from '@idemgen/runtime/ai-sdk';
