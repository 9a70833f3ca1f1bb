// Benchmark target: Tickerbase on a demo SQLite store in a temporary directory.
// Args: <dataDir> [envelope]. Prints `LISTENING <url>` and `KEY <key>`.
import { buildApp } from '../../src/app.js';
import { openStore } from '../../src/store/index.js';
import { loadDemo } from '../../src/demo/load.js';

const [dataDir, envelope = 'native'] = process.argv.slice(2);
const store = await openStore({ dataDir });
if ((await store.reference.countTickers()) === 0) await loadDemo(store, { log: (l) => process.stderr.write(`${l}\n`) });
const { key } = await store.keys.create({ plan: 'demo', label: 'bench' });
const app = await buildApp({ store, config: { envelope: envelope as 'native' | 'wrapped' } });
const url = await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`KEY ${key}\nLISTENING ${url}\n`);
process.once('SIGTERM', async () => {
  await app.close();
  await store.close();
  process.exit(0);
});
