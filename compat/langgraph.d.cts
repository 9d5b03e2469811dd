export * from '@idemgen/runtime/langgraph';
