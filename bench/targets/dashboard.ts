// Benchmark target: Tickerbase with the dashboard, on SQLite with the demo's reference, market and
// branding data. Args: <dataDir>. Prints `LISTENING <url>`.
import { join } from 'node:path';
import { DEMO_AS_OF, DEMO_STEPS } from '../../src/demo/load.js';
import { buildApp } from '../../src/app.js';
import { openStore } from '../../src/store/index.js';

const [dataDir] = process.argv.slice(2);
const store = await openStore({ dataDir });
const brandingDir = join(dataDir!, 'branding');
if ((await store.reference.countTickers()) === 0) {
  for (const step of DEMO_STEPS.slice(0, 3)) await step.run(store, { scale: 1, asOf: DEMO_AS_OF, log: () => {}, brandingDir });
}
const app = await buildApp({ store, config: { envelope: 'wrapped', brandingDir }, dashboard: { signup: 'open' } });
const url = await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`LISTENING ${url}\n`);
process.once('SIGTERM', async () => {
  await app.close();
  await store.close();
  process.exit(0);
});
