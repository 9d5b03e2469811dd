import { main } from './src/cli/main.js';
const code = await main(process.argv.slice(2));
console.log('exit', code);
