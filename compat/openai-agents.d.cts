export * from '@idemgen/runtime/openai-agents';
