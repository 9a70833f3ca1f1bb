// Benchmark target: the `tickerbase` CLI from the sources of another checkout (to compare
// commits). Args: <checkout dir> <cli args...>.
const [src, ...cli] = process.argv.slice(2);
const { main } = (await import(`${src}/src/cli/index.ts`)) as { main(argv: string[]): Promise<void> };
await main([process.argv[0]!, 'tickerbase', ...cli]);
