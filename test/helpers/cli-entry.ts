import { main } from '../../src/cli/index.js';

await main(process.argv);
