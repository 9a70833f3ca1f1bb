// Reads a flat file with readFlatFile in a process of its own and prints, as one JSON line, the
// rows it read, the seconds it took and its peak RSS growth: a test process that has run other
// test files has a heap of their making, which would be counted in its own RSS figures.
// Args: <flat file path>.
import { readFlatFile } from '../../src/ingest/flatfile.js';

const path = process.argv[2]!;
const baseline = process.memoryUsage().rss;
let peak = baseline;
let rows = 0;
const kinds = new Set<string>();
const started = performance.now();
for await (const { kind, batch } of readFlatFile(path)) {
  kinds.add(kind);
  rows += batch.length;
  peak = Math.max(peak, process.memoryUsage().rss);
}
const seconds = (performance.now() - started) / 1000;
process.stdout.write(`${JSON.stringify({ rows, seconds, kinds: [...kinds], rssGrowth: peak - baseline })}\n`);
