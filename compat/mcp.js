// `idemgen/runtime/mcp` is @idemgen/runtime/mcp (one copy, so instanceof checks hold across both names).
export * from '@idemgen/runtime/mcp';
