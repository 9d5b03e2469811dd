// `idemgen/runtime/openai` is @idemgen/runtime/openai (one copy, so instanceof checks hold across both names).
export * from '@idemgen/runtime/openai';
