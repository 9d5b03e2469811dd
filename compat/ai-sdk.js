// `idemgen/runtime/ai-sdk` is @idemgen/runtime/ai-sdk (one copy, so instanceof checks hold across both names).
export * from '@idemgen/runtime/ai-sdk';
