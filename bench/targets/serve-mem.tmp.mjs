import { pathToFileURL } from 'node:url';
import v8 from 'node:v8';
const [src, ...cli] = process.argv.slice(2);
process.on('message', (m) => {
  if (m === 'mem') process.send({ mu: process.memoryUsage(), spaces: v8.getHeapSpaceStatistics().map((s) => [s.space_name, Math.round(s.space_size / 2 ** 20), Math.round(s.space_used_size / 2 ** 20)]), maxRSS: process.resourceUsage().maxRSS / 1024 });
  if (m === 'gc') { globalThis.gc?.(); process.send('ok'); }
});
const { main } = await import(pathToFileURL(`${src}/dist/cli/index.js`).href);
await main([process.argv[0], 'tickerbase', ...cli]);
