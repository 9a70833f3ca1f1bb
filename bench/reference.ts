// Ticker overview and a 1000-item tickers page: Tickerbase vs a bare node:http server sending the
// same bytes from memory. Target: overview at least 0.6x the bare server.
// BENCH_SECONDS (default 5) per run, BENCH_ROUNDS (default 3) runs of each server.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fmt, load, median, startChild, type LoadResult } from './lib.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const dir = mkdtempSync(join(tmpdir(), 'tickerbase-bench-'));
try {
  const tb = await startChild('bench/targets/tickerbase.ts', [dir, 'native']);
  // The key was printed by the target; read it back from its store instead of parsing stdout twice.
  const { openStore } = await import('../src/store/index.js');
  const store = await openStore({ dataDir: dir });
  const { key } = await store.keys.create({ plan: 'demo', label: 'bench-client' });
  await store.close();
  const headers = { 'x-api-key': key };
  const paths = { overview: '/v3/reference/tickers/AAPL', page: '/v3/reference/tickers?limit=1000' };
  const bodies: Record<string, string> = {};
  for (const [name, p] of Object.entries(paths)) {
    const res = await fetch(`${tb.url}${p}`, { headers });
    if (res.status !== 200) throw new Error(`${name}: HTTP ${res.status}`);
    bodies[p.split('?')[0]] = Buffer.from(await res.arrayBuffer()).toString('base64');
  }
  const file = join(dir, 'bodies.json');
  writeFileSync(file, JSON.stringify(bodies));
  const bare = await startChild('bench/targets/bare.ts', [file]);
  const fastify = await startChild('bench/targets/fastify.ts', [file]);
  console.log(`reference endpoints, ${rounds} rounds of ${seconds} s per server, taken in turn, 10 connections, loopback (medians)`);
  for (const [name, p] of Object.entries(paths)) {
    // Rounds alternate the three servers, so a slow spell of a shared machine hits each of them
    // alike; the median of each server's rounds counts.
    const runs: { ours: LoadResult[]; base: LoadResult[]; framework: LoadResult[] } = { ours: [], base: [], framework: [] };
    // A second of load on each first, not counted: every server's code is compiled and warm
    // before its rounds are taken.
    await load(`${tb.url}${p}`, { seconds: 1, headers });
    await load(`${bare.url}${p.split('?')[0]}`, { seconds: 1 });
    await load(`${fastify.url}${p.split('?')[0]}`, { seconds: 1 });
    for (let r = 0; r < rounds; r++) {
      runs.ours.push(await load(`${tb.url}${p}`, { seconds, headers }));
      runs.base.push(await load(`${bare.url}${p.split('?')[0]}`, { seconds }));
      runs.framework.push(await load(`${fastify.url}${p.split('?')[0]}`, { seconds }));
    }
    const ours = median(runs.ours);
    const base = median(runs.base);
    const framework = median(runs.framework);
    const spread = (rs: LoadResult[]) => `rounds ${rs.map((x) => x.rps.toFixed(0)).join(', ')}`;
    console.log(`${name.padEnd(9)} tickerbase ${fmt(ours)}  (${(ours.bytesPerRequest / 1024).toFixed(1)} KiB/req; ${spread(runs.ours)})`);
    console.log(`${''.padEnd(9)} bare http  ${fmt(base)}  (${spread(runs.base)})`);
    console.log(`${''.padEnd(9)} bare fastify ${fmt(framework)}  (the same bytes from memory: the framework's own ceiling; ${spread(runs.framework)})`);
    console.log(`${''.padEnd(9)} ratio ${(ours.rps / base.rps).toFixed(2)}x of bare http${name === 'overview' ? ' (target >= 0.60x)' : ''}; bare fastify is ${(framework.rps / base.rps).toFixed(2)}x of bare http; tickerbase is ${(ours.rps / framework.rps).toFixed(2)}x of bare fastify`);
  }
  await fastify.stop();
  await bare.stop();
  await tb.stop();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
