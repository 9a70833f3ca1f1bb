// Speed while the market is live: REST answers and feed delivery of `tickerbase serve` while
// trades are published, against a bare node:http server sending the same bytes in the same run.
//
// Processes: the server (the real `serve`, compiled from this checkout, over the demo data set,
// live demo tape off), the bare server (bench/targets/bare-cpu.ts), wrk (-t1, its own process),
// the publisher (bench/live-publisher.ts: trades of 20 demo tickers POSTed to /admin/publish at a
// fixed rate) and 10 feed subscribers of T.* (bench/live-subscribers.ts, one process). For each
// event rate (BENCH_RATES, default 0,2000,10000 events/s) every case runs on each server in turn;
// the subscribers' publish → receive latency is taken over the rate's whole REST load (the bare
// server's rounds and the warm-ups included), and apart over this server's own measured rounds,
// in all and per case. Then the
// publisher sends as fast as the server takes batches of 5,000 for BENCH_SECONDS, and the trades
// stored are counted back from the store (rows before and after). RSS of the server is printed
// at the start and end of each rate.
//
// Goals (issue "Speed while the market is live"): single-ticker snapshot ≥ 0.5× bare with p99 ≤
// 20 ms; full-market snapshot ≥ 0.2×; 1/minute aggregates over 60 days to today, limit=50000, ≥
// 0.2× at 200 events/s; trades limit=50000 of a ticker trading live ≥ 0.1×; a cached answer about
// a ticker not traded unchanged by the rate (within 10 %); feed p99 ≤ 50 ms at 10,000 events/s;
// ≥ 50,000 trades stored per second.
//
// BENCH_SECONDS (default 3) per round, BENCH_ROUNDS (default 1, medians), BENCH_CONNECTIONS
// (default 50), BENCH_RATES, BENCH_CASES (names or parts of names, comma-separated), BENCH_ENGINES (sqlite,postgres: PostgreSQL when DATABASE_URL is
// set), BENCH_DIR (default $TMPDIR/tickerbase-bench-live; the demo is loaded once and kept),
// BENCH_SERVER_ARGS (more `serve` flags, space-separated, e.g. --workers 2).
import type { ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { forkChild, type Published } from './live-children.js';
import { benchDatabase, openBenchStore, line, median, runWrk, startBare, startServer, type Case, type Child, type WrkResult } from './wrk-servers.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 3);
const rounds = Number(process.env.BENCH_ROUNDS ?? 1);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const rates = (process.env.BENCH_RATES ?? '0,2000,10000').split(',').map(Number);
const onlyEngines = process.env.BENCH_ENGINES?.split(',');
const benchDir = process.env.BENCH_DIR ?? join(tmpdir(), 'tickerbase-bench-live');
/** Only the cases whose names contain one of these (comma-separated), when set. */
const onlyCases = process.env.BENCH_CASES?.split(',');
const serverArgs = process.env.BENCH_SERVER_ARGS?.split(' ').filter(Boolean) ?? [];
const TOKEN = 'bench-live-admin-token-0123456789abcdef';
const SUBSCRIBERS = 10;
/** The tickers the publisher trades; AAPL among them. */
const TRADED = ['AAPL', 'AMZN', 'NVDA', 'TSLA', 'GOOGL', 'META', 'AMD', 'NFLX', 'INTC', 'CSCO', 'ORCL', 'IBM', 'QCOM', 'ADBE', 'CRM', 'PYPL', 'UBER', 'SHOP', 'SQ', 'PLTR'];
/** A ticker nobody trades here: its cached answers must not notice the rate. */
const UNTRADED = 'KO';

function cases(today: string, from60: string): Case[] {
  return [
    { name: 'snapshot AAPL', paths: ['/v2/snapshot/locale/us/markets/stocks/tickers/AAPL'] },
    { name: 'snapshot full market', paths: ['/v2/snapshot/locale/us/markets/stocks/tickers'], connections: 10 },
    { name: 'aggs 1/minute 60 days 50000', paths: [`/v2/aggs/ticker/AAPL/range/1/minute/${from60}/${today}?limit=50000`], connections: 4 },
    { name: 'trades AAPL 50000', paths: ['/v3/trades/AAPL?limit=50000'], connections: 4 },
    { name: `overview ${UNTRADED} (not traded)`, paths: [`/v3/reference/tickers/${UNTRADED}`] },
    { name: `aggs ${UNTRADED} 1/minute 5 days (not traded)`, paths: [`/v2/aggs/ticker/${UNTRADED}/range/1/minute/${dateBefore(today, 5)}/${today}`] },
  ];
}

function dateBefore(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);
}

/** A wrk run; one that completed no request (a server too busy to answer within the round) counts as 0 req/s. */
async function measure(target: Child, c: Case, headers: Record<string, string>, secs: number): Promise<WrkResult> {
  try {
    return await runWrk(target, c, undefined, headers, secs, connections);
  } catch {
    return { requests: 0, rps: 0, p50: NaN, p99: NaN, bad: 0, cpuPerRequestMs: NaN };
  }
}

const rssNow = (proc: ChildProcess) =>
  new Promise<number>((resolve) => {
    proc.once('message', (m) => resolve((m as { now: NodeJS.MemoryUsage }).now.rss / 2 ** 20));
    proc.send('memory');
  });

async function benchEngine(engine: 'sqlite' | 'postgres', databaseUrl?: string): Promise<void> {
  const dataDir = join(benchDir, engine);
  const { store, storeArgs } = await openBenchStore(dataDir, databaseUrl);
  const { key } = await store.keys.create({ plan: 'demo', label: 'bench-live' });
  const headers = { 'x-api-key': key };
  const server = await startServer(['--admin-token', TOKEN, '--stream-connections', String(SUBSCRIBERS * 2), ...storeArgs, ...serverArgs], join(dataDir, 'access.log'), process.cwd());
  let bare: Child | undefined;
  let publisher: Awaited<ReturnType<typeof forkChild<Published>>> | undefined;
  const subscribers = await forkChild<{ events: number; p50: number; p99: number; ours?: { events: number; p50: number; p99: number } }>('./live-subscribers.ts', [server.url.replace('http', 'ws') + '/stocks', key, String(SUBSCRIBERS)]);
  try {
    const today = new Date().toISOString().slice(0, 10);
    const list = cases(today, dateBefore(today, 60)).filter((c) => !onlyCases || onlyCases.some((o) => c.name.includes(o)));
    const recorded: Record<string, { body: string; headers: Record<string, string> }> = {};
    for (const c of list) {
      const res = await fetch(`${server.url}${c.paths[0]}`, { headers: { ...headers, 'accept-encoding': 'identity' } });
      if (res.status !== 200) throw new Error(`${c.paths[0]}: HTTP ${res.status} ${await res.text()}`);
      recorded[c.paths[0]!] = { body: Buffer.from(await res.arrayBuffer()).toString('base64'), headers: Object.fromEntries(res.headers) };
    }
    const file = join(dataDir, 'recorded.json');
    writeFileSync(file, JSON.stringify(recorded));
    bare = await startBare(file);
    console.log(`\n${engine}: wrk -t1 -c${connections} (fewer where a case says), ${rounds} round(s) of ${seconds} s per server in turn; ${SUBSCRIBERS} subscribers of T.*; 2 cores shared with other work: figures are indicative`);
    /** Per rate and case: our req/s and our ratio to the bare server measured right after us. */
    const byRate = new Map<number, Map<string, { rps: number; ratio: number }>>();
    for (const rate of rates) {
      publisher = rate > 0 ? await forkChild<Published>('./live-publisher.ts', [server.url, TOKEN, String(rate), TRADED.join(',')]) : undefined;
      await new Promise((r) => setTimeout(r, 1000));
      const rssStart = await rssNow(server.proc);
      subscribers.tell('reset');
      publisher?.tell('reset');
      console.log(`\n-- ${rate} events/s: server RSS at start ${rssStart.toFixed(0)} MiB`);
      const results = new Map<string, { rps: number; ratio: number }>();
      for (const c of list) {
        await measure(server, c, headers, 1); // warm, not counted
        const ours: WrkResult[] = [];
        const base: WrkResult[] = [];
        for (let r = 0; r < rounds; r++) {
          subscribers.tell('ours-start');
          ours.push(await measure(server, c, headers, seconds));
          subscribers.tell('ours-end');
          base.push(await measure(bare, c, {}, seconds));
        }
        const o = median(ours);
        const b = median(base);
        results.set(c.name, { rps: o.rps, ratio: o.rps / b.rps });
        console.log(`${c.name}${c.connections ? ` (${c.connections} connections)` : ''}: ratio ${(o.rps / b.rps).toFixed(3)}x`);
        console.log(line('tickerbase', o));
        console.log(line('bare http', b));
        const feedOfCase = await subscribers.ask('case');
        console.log(`  feed while this case ran against tickerbase: p50 ${feedOfCase.p50} ms, p99 ${feedOfCase.p99} ms`);
      }
      byRate.set(rate, results);
      const feed = await subscribers.ask('report');
      console.log(`feed publish → receive over the REST load: ${feed.events} events received, p50 ${feed.p50} ms, p99 ${feed.p99} ms (goal at 10,000 events/s: ≤ 50 ms)`);
      console.log(`  of which while the REST load ran against this server (its measured rounds, not the bare server's or the warm-ups): ${feed.ours?.events} events, p50 ${feed.ours?.p50} ms, p99 ${feed.ours?.p99} ms`);
      if (publisher) {
        const p = await publisher.ask('report');
        console.log(`published ${p.sent} trades (${p.refused} refused), publish request p50 ${p.publishMs[0].toFixed(1)} ms p99 ${p.publishMs[1].toFixed(1)} ms`);
        publisher.tell('stop');
      }
      console.log(`server RSS at end ${(await rssNow(server.proc)).toFixed(0)} MiB`);
    }
    const quiet = byRate.get(rates[0]!);
    for (const [rate, results] of byRate) {
      if (rate === rates[0]) continue;
      for (const name of [...results.keys()].filter((n) => n.includes('not traded'))) {
        // The publisher, the subscribers and the server's own publish work take CPU from the same two
        // cores, so the bare server slows too: the ratio to it is what tells whether our answer changed.
        const now = results.get(name)!;
        const then = quiet!.get(name)!;
        console.log(
          `${name} at ${rate} events/s: ratio to bare ${(now.ratio / then.ratio).toFixed(2)}x of its ratio at ${rates[0]} events/s (goal: within 10 %); req/s ${(now.rps / then.rps).toFixed(2)}x`,
        );
      }
    }

    // stored events per second, counted back from the store (after the last rate's backlog drained)
    await new Promise((r) => setTimeout(r, 3000));
    const before = (await store.status()).rows.trades;
    const cpuBefore = await server.cpu();
    const flat = await forkChild<Published>('./live-publisher.ts', [server.url, TOKEN, '0', TRADED.map((_, i) => `ZB${i}`).join(',')]);
    flat.tell('reset');
    const started = performance.now();
    await new Promise((r) => setTimeout(r, seconds * 1000));
    const p = await flat.ask('report');
    const elapsed = (performance.now() - started) / 1000;
    const serverCpuMs = (await server.cpu()) - cpuBefore;
    flat.tell('stop');
    await new Promise((r) => setTimeout(r, 1500)); // the requests in flight answered
    const counted = (await store.status()).rows.trades - before;
    console.log(
      `\nstored: ${counted} trades counted back in the store over ${elapsed.toFixed(1)} s of publishing as fast as the server takes them: ${(p.sent / elapsed).toFixed(0)} trades/s acknowledged, ${p.refused} refused, publish p99 ${p.publishMs[1].toFixed(0)} ms, server CPU ${((serverCpuMs * 1000) / p.sent).toFixed(1)} µs per trade acknowledged (goal ≥ 50,000/s; ${(p.sent / elapsed / 50_000).toFixed(2)}x)`,
    );
    console.log(`server RSS after all: ${(await rssNow(server.proc)).toFixed(0)} MiB`);
  } finally {
    publisher?.proc.kill();
    subscribers.proc.kill();
    await bare?.stop();
    await server.stop();
    await store.close();
  }
}

const wanted = (e: string) => !onlyEngines || onlyEngines.includes(e);
if (wanted('sqlite')) await benchEngine('sqlite');
if (wanted('postgres')) {
  if (process.env.DATABASE_URL) await benchEngine('postgres', await benchDatabase(process.env.DATABASE_URL));
  else console.log('\npostgres: skipped (DATABASE_URL is not set)');
}
