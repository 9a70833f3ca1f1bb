// Benchmark target: the compiled `tickerbase serve` of a checkout (its dist/, as bin/tickerbase
// runs it), in this process, answering the parent's IPC message 'cpu' with process.cpuUsage()
// (the server's CPU time, for CPU per request) and 'rss' with the peak resident set size so far,
// in bytes, and 'memory' with process.memoryUsage() now. Plain JavaScript run by plain Node: no TypeScript loader in the measured process.
// Args: <checkout dir> <the CLI's arguments after `tickerbase`>.
import { pathToFileURL } from 'node:url';

const [src, ...cli] = process.argv.slice(2);
process.on('message', (m) => {
  if (m === 'cpu') process.send(process.cpuUsage());
  else if (m === 'rss') process.send(process.resourceUsage().maxRSS * 1024);
  else if (m === 'memory') process.send(process.memoryUsage());
});
const { main } = await import(pathToFileURL(`${src}/dist/cli/index.js`).href);
await main([process.argv[0], 'tickerbase', ...cli]);
