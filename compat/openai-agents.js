// `idemgen/runtime/openai-agents` is @idemgen/runtime/openai-agents (one copy, so instanceof checks hold across both names).
export * from '@idemgen/runtime/openai-agents';
