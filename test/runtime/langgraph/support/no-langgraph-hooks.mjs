// Module resolve hook: behave as if no @langchain/* package were installed (optional peer absent).
export async function resolve(specifier, context, nextResolve) {
  if (specifier.startsWith('@langchain/')) {
    const err = new Error(`Cannot find package '${specifier}' (hidden by no-langgraph-hooks)`);
    err.code = 'ERR_MODULE_NOT_FOUND';
    throw err;
  }
  return nextResolve(specifier, context);
}
