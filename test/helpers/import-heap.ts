// Imports a flat file into a SQLite store in a process of its own and prints, as one JSON line,
// the rows imported and the growth of the live JS heap over the import (collected every few
// progress reports: garbage not yet collected says nothing about streaming). A test process that
// has run other test files has a larger heap of theirs, which made each collection slower.
// Run with --expose-gc. Args: <SQLite file> <flat file>.
import { importFile } from '../../src/ingest/load.js';
import { openStore } from '../../src/store/index.js';

const [sqliteFile, path] = process.argv.slice(2) as [string, string];
if (global.gc === undefined) throw new Error('run with --expose-gc');
const store = await openStore({ sqliteFile });
try {
  global.gc();
  const baseline = process.memoryUsage().heapUsed;
  let peak = baseline;
  let calls = 0;
  const r = await importFile(store, path, {
    onProgress: () => {
      if (calls++ % 4 === 0) global.gc!();
      peak = Math.max(peak, process.memoryUsage().heapUsed);
    },
  });
  process.stdout.write(`${JSON.stringify({ rows: r.rows, heapGrowth: peak - baseline })}\n`);
} finally {
  await store.close();
}
