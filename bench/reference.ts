// Ticker overview and a 1000-item tickers page: Tickerbase vs a bare node:http server sending the
// same bytes from memory. Target: overview at least 0.6x the bare server. Two bare servers: one
// sends the same response bytes, headers included (request id and ETag as recorded once), which
// is the comparison the target is read against; one sends the body with Content-Type and
// Content-Length only, the lower bound of what any HTTP server sends, shown beside it.
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
  // The answers as the load generator gets them (it asks for no compression): body and headers.
  const bodies: Record<string, { body: string; headers: Record<string, string> }> = {};
  for (const [name, p] of Object.entries(paths)) {
    const res = await fetch(`${tb.url}${p}`, { headers: { ...headers, 'accept-encoding': 'identity' } });
    if (res.status !== 200) throw new Error(`${name}: HTTP ${res.status}`);
    if (res.headers.has('content-encoding')) throw new Error(`${name}: answered compressed although identity was asked for`);
    bodies[p.split('?')[0]] = { body: Buffer.from(await res.arrayBuffer()).toString('base64'), headers: Object.fromEntries(res.headers) };
  }
  const file = join(dir, 'bodies.json');
  writeFileSync(file, JSON.stringify(bodies));
  const bare = await startChild('bench/targets/bare.ts', [file]);
  const same = await startChild('bench/targets/bare.ts', [file, '--same-headers']);
  const fastify = await startChild('bench/targets/fastify.ts', [file]);
  console.log(`reference endpoints, ${rounds} rounds of ${seconds} s per server, taken in turn, 10 connections, loopback (medians)`);
  for (const [name, p] of Object.entries(paths)) {
    // Rounds alternate the four servers, so a slow spell of a shared machine hits each of them
    // alike; the median of each server's rounds counts.
    const runs: { ours: LoadResult[]; same: LoadResult[]; base: LoadResult[]; framework: LoadResult[] } = { ours: [], same: [], base: [], framework: [] };
    // A second of load on each first, not counted: every server's code is compiled and warm
    // before its rounds are taken.
    await load(`${tb.url}${p}`, { seconds: 1, headers });
    await load(`${same.url}${p.split('?')[0]}`, { seconds: 1 });
    await load(`${bare.url}${p.split('?')[0]}`, { seconds: 1 });
    await load(`${fastify.url}${p.split('?')[0]}`, { seconds: 1 });
    for (let r = 0; r < rounds; r++) {
      runs.ours.push(await load(`${tb.url}${p}`, { seconds, headers }));
      runs.same.push(await load(`${same.url}${p.split('?')[0]}`, { seconds }));
      runs.base.push(await load(`${bare.url}${p.split('?')[0]}`, { seconds }));
      runs.framework.push(await load(`${fastify.url}${p.split('?')[0]}`, { seconds }));
    }
    const ours = median(runs.ours);
    const sameBytes = median(runs.same);
    const base = median(runs.base);
    const framework = median(runs.framework);
    const spread = (rs: LoadResult[]) => `rounds ${rs.map((x) => x.rps.toFixed(0)).join(', ')}`;
    console.log(`${name.padEnd(9)} tickerbase ${fmt(ours)}  (${(ours.bytesPerRequest / 1024).toFixed(1)} KiB/req; ${spread(runs.ours)})`);
    console.log(`${''.padEnd(9)} bare http, same bytes ${fmt(sameBytes)}  (${(sameBytes.bytesPerRequest / 1024).toFixed(1)} KiB/req; ${spread(runs.same)})`);
    console.log(`${''.padEnd(9)} bare http, body only ${fmt(base)}  (Content-Type and Content-Length only; ${spread(runs.base)})`);
    console.log(`${''.padEnd(9)} bare fastify ${fmt(framework)}  (the body from memory with Content-Type, in a route without hooks: the framework's own ceiling; ${spread(runs.framework)})`);
    console.log(
      `${''.padEnd(9)} ratio ${(ours.rps / sameBytes.rps).toFixed(2)}x of bare http sending the same bytes${name === 'overview' ? ' (target >= 0.60x)' : ''}; ` +
        `${(ours.rps / base.rps).toFixed(2)}x of bare http sending the body only (our headers alone take bare http to ${(sameBytes.rps / base.rps).toFixed(2)}x); ` +
        `bare fastify is ${(framework.rps / base.rps).toFixed(2)}x of bare http (body only); tickerbase is ${(ours.rps / framework.rps).toFixed(2)}x of bare fastify`,
    );
  }
  await fastify.stop();
  await bare.stop();
  await same.stop();
  await tb.stop();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
