// News list pages at the maximum limit (1000) over 20,000 generated articles (SQLite, native
// envelope, loopback): newest page, one ticker, a ticker range, a date range, and a deep page
// reached by cursor.
// Run: node --import tsx bench/news.ts   (BENCH_SECONDS, BENCH_ARTICLES to change the run)
// The same file is the server child: bench/news.ts --serve <dataDir>.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { demoArticles } from '../src/demo/news.js';
import { buildApp } from '../src/app.js';
import { openStore } from '../src/store/index.js';
import { fmt, load, startChild } from './lib.js';

const AS_OF = '2026-11-20';

if (process.argv[2] === '--serve') {
  const store = await openStore({ dataDir: process.argv[3]! });
  const { key } = await store.keys.create({ plan: 'demo', label: 'bench' });
  const app = await buildApp({ store, config: { envelope: 'native' } });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  process.stdout.write(`KEY ${key}\nLISTENING ${url}\n`);
  process.once('SIGTERM', async () => {
    await app.close();
    await store.close();
    process.exit(0);
  });
} else {
  const seconds = Number(process.env.BENCH_SECONDS ?? 8);
  const articles = Number(process.env.BENCH_ARTICLES ?? 20_000);
  const dir = mkdtempSync(join(tmpdir(), 'tickerbase-bench-news-'));
  try {
    const store = await openStore({ dataDir: dir });
    const rows = demoArticles(AS_OF, articles / 1500).slice(0, articles);
    for (let i = 0; i < rows.length; i += 1000) await store.news.upsertArticles(rows.slice(i, i + 1000));
    const { key } = await store.keys.create({ plan: 'demo', label: 'bench-client' });
    const total = await store.news.countArticles();
    await store.close();

    const server = await startChild('bench/news.ts', ['--serve', dir]);
    const headers = { 'x-api-key': key };
    // A deep page: follow next_url ten times from the newest page.
    let deep = '/v2/reference/news?limit=1000';
    for (let i = 0; i < 10; i++) {
      const body = (await (await fetch(`${server.url}${deep}`, { headers })).json()) as { next_url?: string };
      if (!body.next_url) break;
      const u = new URL(body.next_url);
      deep = u.pathname + u.search;
    }
    const cases: [string, string][] = [
      ['newest 1000', '/v2/reference/news?limit=1000'],
      ['ticker=AAPL', '/v2/reference/news?ticker=AAPL&limit=1000'],
      ['ticker range', '/v2/reference/news?ticker.gte=T&ticker.lt=U&limit=1000'],
      ['date range', '/v2/reference/news?published_utc.gte=2026-08-01&published_utc.lt=2026-09-01&limit=1000'],
      ['11th page', deep],
    ];
    console.log(`news list pages, ${total} articles (SQLite), ${seconds} s each, 10 connections, loopback, native envelope`);
    for (const [name, path] of cases) {
      const probe = (await (await fetch(`${server.url}${path}`, { headers })).json()) as { count: number };
      const r = await load(`${server.url}${path}`, { seconds, headers });
      console.log(`${name.padEnd(12)} ${fmt(r)}  (${probe.count} articles, ${(r.bytesPerRequest / 1024).toFixed(0)} KiB/req)`);
    }
    await server.stop();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
