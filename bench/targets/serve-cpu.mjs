// Benchmark target: the compiled `tickerbase serve` of a checkout (its dist/, as bin/tickerbase
// runs it), in this process, answering the parent's IPC message 'cpu' with process.cpuUsage()
// (the server's CPU time, for CPU per request), 'rss' with the peak resident set size so far, in
// bytes, and 'memory' with process.memoryUsage() now and at the highest RSS sampled so far (every
// 100 ms: what a peak was made of, V8's heap or memory outside it). Plain JavaScript run by plain
// Node: no TypeScript loader in the measured process.
// Args: <checkout dir> <the CLI's arguments after `tickerbase`>.
//
// The peak is the kernel's high-water mark of this process's own memory (VmHWM), not
// resourceUsage().maxRSS: Linux carries a parent's RSS at the time of the spawn into the child's
// maxRSS, so a bench process holding a few hundred MiB of recorded answers would be reported as
// the server's peak.
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const [src, ...cli] = process.argv.slice(2);

/** VmHWM of /proc/self/status, in bytes. */
function highWaterMark() {
  const kib = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'));
  if (kib === null) throw new Error('no VmHWM in /proc/self/status');
  return Number(kib[1]) * 1024;
}

let peak = process.memoryUsage();
// memoryUsage.rss() alone is a cheap read; the whole breakdown is taken only when it is higher
setInterval(() => {
  if (process.memoryUsage.rss() > peak.rss) peak = process.memoryUsage();
}, 100).unref();
process.on('message', (m) => {
  if (m === 'cpu') process.send(process.cpuUsage());
  else if (m === 'rss') process.send(highWaterMark());
  else if (m === 'memory') process.send({ now: process.memoryUsage(), peak });
});
const { main } = await import(pathToFileURL(`${src}/dist/cli/index.js`).href);
await main([process.argv[0], 'tickerbase', ...cli]);
