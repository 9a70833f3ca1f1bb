// Benchmark target: `tickerbase serve` from these sources, in this process, answering the parent's
// IPC message 'cpu' with process.cpuUsage() (the server's CPU time, for CPU per request).
// Args: the CLI's arguments after `tickerbase`.
import { main } from '../../src/cli/index.js';

process.on('message', (m) => {
  if (m === 'cpu') process.send!(process.cpuUsage());
});
await main([process.argv[0]!, 'tickerbase', ...process.argv.slice(2)]);
