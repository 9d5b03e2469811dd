export * from '@idemgen/runtime/mcp';
