// One process rolling the demo of a SQLite data directory: prints the sessions it added as JSON
// (null when it found nothing to do). Used to start two rolls at once from separate processes.
import { rollDemo } from '../../src/demo/roll.js';
import { openStore } from '../../src/store/index.js';

const [dataDir, nowMs] = process.argv.slice(2);
const store = await openStore({ dataDir: dataDir! });
try {
  const summary = await rollDemo(store, { nowMs: Number(nowMs) });
  process.stdout.write(JSON.stringify(summary ? summary.sessions : null));
} finally {
  await store.close();
}
