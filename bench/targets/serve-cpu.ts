// Benchmark target: `tickerbase serve` from the sources of a checkout, in this process, answering
// the parent's IPC message 'cpu' with process.cpuUsage() (the server's CPU time, for CPU per
// request) and 'rss' with the peak resident set size so far, in bytes. Args: <checkout dir> <the CLI's arguments after `tickerbase`>.
const [src, ...cli] = process.argv.slice(2);
process.on('message', (m) => {
  if (m === 'cpu') process.send!(process.cpuUsage());
  else if (m === 'rss') process.send!(process.resourceUsage().maxRSS * 1024);
});
const { main } = (await import(`${src}/src/cli/index.ts`)) as { main(argv: string[]): Promise<void> };
await main([process.argv[0]!, 'tickerbase', ...cli]);
