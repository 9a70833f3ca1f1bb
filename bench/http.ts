// HTTP throughput of `tickerbase serve` against a bare node:http server sending the same bytes.
//
// Both servers are child processes, and the load generator is wrk (`wrk -t1 -c50 --latency`), a
// third process, so no server shares its event loop with the client. The server is the real
// `serve` command (access log on, written to a file; response cache on; live demo tape off) over
// the demo data set, compiled from the checkout's sources first (scripts/compile.mjs) and run from
// dist/ by plain Node, as bin/tickerbase runs it. One answer per URL (headers and body, asked without compression) is recorded
// from it, and the bare server sends exactly those bytes for that URL: the ratio is what our own
// work costs. Fixed URLs are answered from the response cache after the first request (a page
// repeated, as apps paging the ticker list at every start and back-tests asking a range again
// do; trades up to now too, as nothing is stored after now with the live tape off); the rotating
// cases (a wrk Lua script) show the other side: the overview over 1,000 tickers (each cached after
// its first request), and pages of the ticker list from 1,500 and 200 start tickers, minute bars
// from 60 start dates and trades up to 60 end times, more bytes than the cache holds, so asked in
// turn every one misses and is made anew. Cases alternate the two servers round by round, so a slow spell of the shared
// machine hits both alike; the median round of each counts. Server CPU per request is the
// server child's process.cpuUsage() delta over a round divided by the round's requests; the
// server's peak RSS so far is printed after each case (it only grows: the case that raised it shows)
// and over all cases at the end of each engine.
//
// Engines: SQLite always; PostgreSQL when DATABASE_URL is set, in a database of its own on that
// server (`tickerbase_bench`, created once, kept). The demo is loaded once per engine and kept
// (SQLite under BENCH_DIR, default $TMPDIR/tickerbase-bench-http) for later runs.
// BENCH_SECONDS (default 5) per round, BENCH_ROUNDS (default 3), BENCH_CONNECTIONS (default 50),
// BENCH_CASES (comma-separated case names, default all), BENCH_ENGINES (sqlite,postgres),
// BENCH_SRC (the checkout whose server is measured, default this one: to compare commits).
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { benchDatabase, openBenchStore, line, median, peakRss, memoryNow, rotationScript, runWrk, startBare, startServer, type Case, type WrkResult } from './wrk-servers.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const benchDir = process.env.BENCH_DIR ?? join(tmpdir(), 'tickerbase-bench-http');
const onlyCases = process.env.BENCH_CASES?.split(',');
const onlyEngines = process.env.BENCH_ENGINES?.split(',');
const serverSrc = resolve(process.env.BENCH_SRC ?? process.cwd());


function cases(rotation: string[], lastTrade: string): Case[] {
  const from = (n: number, limit: number) => rotation.slice(0, n).map((t) => `/v3/reference/tickers?limit=${limit}&ticker.gte=${encodeURIComponent(t)}`);
  const all: Case[] = [
    { name: 'overview fixed', paths: ['/v3/reference/tickers/AAPL'] },
    { name: 'overview rotating', paths: rotation.slice(0, 1000).map((t) => `/v3/reference/tickers/${encodeURIComponent(t)}`) },
    { name: 'tickers limit=100', paths: ['/v3/reference/tickers?limit=100'] },
    // 1,500 pages of 27 KiB and 200 of 272 KiB: over the response cache's 32 MiB
    { name: 'tickers limit=100 rotating', paths: from(1500, 100) },
    { name: 'tickers limit=1000', paths: ['/v3/reference/tickers?limit=1000'] },
    { name: 'tickers limit=1000 rotating', paths: from(200, 1000) },
    { name: 'aggs 1/minute 50000', paths: ['/v2/aggs/ticker/AAPL/range/1/minute/2026-01-01/2026-11-20?limit=50000'], connections: 4 },
    // the same bars from 60 different start dates: 54 MiB of answers, over the cache's 32 MiB
    { name: 'aggs 1/minute 50000 rotating', paths: Array.from({ length: 60 }, (_, i) => `/v2/aggs/ticker/AAPL/range/1/minute/${dateAfter('2026-01-01', i)}/2026-11-20?limit=50000`), connections: 4 },
    // a range ending at the latest stored trade, in the past, and one reaching now (a real-time
    // plan's window ends at the clock: that answer is kept only while nothing is stored after now)
    { name: 'trades 50000 past range', paths: [`/v3/trades/AAPL?timestamp.lte=${lastTrade}&limit=50000`], connections: 4 },
    { name: 'trades 50000', paths: ['/v3/trades/AAPL?limit=50000'], connections: 4 },
    // the trades up to 60 instants a minute apart: 140 MiB of answers, read from the store every time
    { name: 'trades 50000 rotating', paths: Array.from({ length: 60 }, (_, i) => `/v3/trades/AAPL?timestamp.lte=${BigInt(lastTrade) - BigInt(i) * 60_000_000_000n}&limit=50000`), connections: 4 },
  ];
  return onlyCases ? all.filter((c) => onlyCases.includes(c.name)) : all;
}

/** The date `days` after `date` (YYYY-MM-DD). */
function dateAfter(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

async function benchEngine(engine: 'sqlite' | 'postgres', databaseUrl?: string): Promise<void> {
  const dataDir = join(benchDir, engine);
  const { store, storeArgs } = await openBenchStore(dataDir, databaseUrl);
  const { key } = await store.keys.create({ plan: 'demo', label: 'bench-http' });
  const rotation = (await store.reference.listTickers({ market: 'stocks', active: true, sort: 'ticker', order: 'asc', limit: 1500 })).map((t) => t.record.ticker);
  await store.close();
  const headers = { 'x-api-key': key };

  const server = await startServer(storeArgs, join(dataDir, 'access.log'), serverSrc);
  try {
    const newest = await fetch(`${server.url}/v3/trades/AAPL?limit=1`, { headers });
    const lastTrade = /"sip_timestamp":(\d+)/.exec(await newest.text())?.[1]; // as text: ns exceed 2^53
    if (lastTrade === undefined) throw new Error('the demo store has no AAPL trade');
    const list = cases(rotation, lastTrade);
    // One answer per URL as the load generator gets it (no compression asked): headers and body.
    const recorded: Record<string, { body: string; headers: Record<string, string> }> = {};
    const sizes = new Map<string, number>();
    let recordedPeak = 0;
    for (const c of list) {
      for (const p of c.paths) {
        const res = await fetch(`${server.url}${p}`, { headers: { ...headers, 'accept-encoding': 'identity' } });
        if (res.status !== 200) throw new Error(`${p}: HTTP ${res.status} ${await res.text()}`);
        const body = Buffer.from(await res.arrayBuffer());
        recorded[p] = { body: body.toString('base64'), headers: Object.fromEntries(res.headers) };
        if (!sizes.has(c.name)) sizes.set(c.name, body.length);
      }
      // which case's first answers raised the peak, if one did
      const rss = await peakRss(server.proc);
      if (rss >= recordedPeak + 2 ** 20) console.log(`  recording ${c.name}: peak RSS ${(rss / 2 ** 20).toFixed(0)} MiB`);
      recordedPeak = rss;
    }
    const file = join(dataDir, 'recorded.json');
    writeFileSync(file, JSON.stringify(recorded));
    console.log(`tickerbase peak RSS after recording one answer per URL (requests one at a time): ${Math.round((await peakRss(server.proc)) / 2 ** 20)} MiB; ${await memoryNow(server.proc)}`);
    const bare = await startBare(file);
    try {
      console.log(`\n${engine}: wrk -t1 -c${connections}, ${rounds} rounds of ${seconds} s per server taken in turn (medians); CPU = server process CPU / requests`);
      for (const c of list) {
        const script = c.paths.length > 1 ? rotationScript(join(dataDir, 'rotate.lua'), c.paths) : undefined;
        // a second of load on each first, not counted: both servers compiled and warm
        await runWrk(server, c, script, headers, 1, connections);
        await runWrk(bare, c, script, {}, 1, connections);
        const ours: WrkResult[] = [];
        const base: WrkResult[] = [];
        for (let r = 0; r < rounds; r++) {
          ours.push(await runWrk(server, c, script, headers, seconds, connections));
          base.push(await runWrk(bare, c, script, {}, seconds, connections));
        }
        const o = median(ours);
        const b = median(base);
        console.log(`${c.name}${c.paths.length > 1 ? ` (${c.paths.length} URLs)` : ''}${c.connections ? ` (${c.connections} connections)` : ''}: ratio ${(o.rps / b.rps).toFixed(3)}x  (rounds ${ours.map((x) => x.rps.toFixed(0)).join(', ')} vs ${base.map((x) => x.rps.toFixed(0)).join(', ')})`);
        console.log(line('tickerbase', o, sizes.get(c.name)));
        console.log(line('bare http', b));
        // the rounds taken back to back: how far the machine's slow spells moved the ratio
        const paired = ours.map((x, i) => x.rps / base[i]!.rps).sort((p, q) => p - q);
        console.log(`  ratio of each round to the bare round after it: ${paired[0]!.toFixed(2)}-${paired[paired.length - 1]!.toFixed(2)}x`);
        console.log(`  tickerbase peak RSS so far: ${((await peakRss(server.proc)) / 2 ** 20).toFixed(0)} MiB`);
      }
      const rss = await peakRss(server.proc);
      console.log(`tickerbase peak RSS over these cases: ${(rss / 2 ** 20).toFixed(0)} MiB (goal: at most 250 MB, ${(rss / 250e6).toFixed(2)}x of it); ${await memoryNow(server.proc)}`);
    } finally {
      await bare.stop();
    }
  } finally {
    await server.stop();
  }
}

const wanted = (e: string) => !onlyEngines || onlyEngines.includes(e);
if (wanted('sqlite')) await benchEngine('sqlite');
if (wanted('postgres')) {
  if (process.env.DATABASE_URL) await benchEngine('postgres', await benchDatabase(process.env.DATABASE_URL));
  else console.log('\npostgres: skipped (DATABASE_URL is not set)');
}
