// The event loop's share of storing published trades: batches of 5,000 trades (pre-parsed, two
// publishes in flight, as bench/live-publisher.ts sends them) through LivePublisher on a fresh
// SQLite file, with no subscribers and no aggregator. Prints trades stored per second, the loop's
// active time per 1,000 trades and its utilization over the run, the longest loop delay, and the
// publishes' p50/p99/longest time (with BENCH_BATCH_SIZE=200, the paced feed's publishes: what a
// commit costs them, the WAL's checkpoints included).
// Compare checkouts by root in the same run: `node --import tsx bench/publish-loop.ts [root ...]`
// (default this checkout; another root needs its own node_modules link). BENCH_BATCHES (30),
// BENCH_BATCH_SIZE (5000).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';

const batches = Number(process.env.BENCH_BATCHES ?? 30);
const size = Number(process.env.BENCH_BATCH_SIZE ?? 5000);
const roots = process.argv.length > 2 ? process.argv.slice(2) : [process.cwd()];

function ndjson(from: number, n: number): string {
  const t = Date.now();
  let out = '';
  for (let k = from; k < from + n; k++) out += `{"ev":"T","sym":"S${k % 20}","x":4,"i":"b-${k}","p":${(100 + (k % 997) / 100).toFixed(2)},"s":${1 + (k % 300)},"t":${t},"q":${k}}\n`;
  return out;
}

for (const root of roots.map((r) => resolve(r))) {
  const { openStore } = await import(`${root}/src/store/index.ts`);
  const { LivePublisher } = await import(`${root}/src/stream/publish.ts`);
  const { parsePublishBody } = await import(`${root}/src/stream/publish-input.ts`);
  const dir = mkdtempSync(join(tmpdir(), 'tb-publish-loop-'));
  const store = await openStore({ dataDir: dir, busyTimeoutMs: 50, sqliteCacheMiB: 16 });
  const broker = { status: () => undefined, publish: async () => 'local' };
  const publisher = new LivePublisher(broker as never, store);
  const items = await Promise.all(Array.from({ length: batches + 2 }, (_, b) => parsePublishBody(ndjson(b * size, size))));
  await publisher.publish(items[0]); // warm: the write thread started, statements prepared
  await publisher.publish(items[1]);
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const before = performance.eventLoopUtilization();
  const started = performance.now();
  let next = 2;
  const times: number[] = [];
  const lane = async () => {
    while (next < items.length) {
      const t = performance.now();
      await publisher.publish(items[next++]);
      times.push(performance.now() - t);
    }
  };
  await Promise.all([lane(), lane()]);
  const wall = performance.now() - started;
  const loop = performance.eventLoopUtilization(before);
  delay.disable();
  const trades = batches * size;
  times.sort((a, b) => a - b);
  const at = (p: number) => times[Math.min(times.length - 1, Math.floor(times.length * p))]!.toFixed(1);
  console.log(
    `${root}: ${((trades / wall) * 1000).toFixed(0)} trades/s stored; loop active ${((loop.active / trades) * 1000).toFixed(2)} ms per 1,000 trades, ` +
      `busy ${(loop.utilization * 100).toFixed(0)} % of the run; longest loop delay ${delay.count > 0 ? `${(delay.max / 1e6).toFixed(0)} ms` : 'not measured (the loop was never free to time itself)'}; ` +
      `publishes of ${size} p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, longest ${at(1)} ms`,
  );
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}
