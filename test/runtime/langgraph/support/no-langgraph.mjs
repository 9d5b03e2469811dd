import { register } from 'node:module';

register('./no-langgraph-hooks.mjs', import.meta.url);
