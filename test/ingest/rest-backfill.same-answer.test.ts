// "Served the same as upstream served it": recorded upstream bodies (../shared/fixtures/upstream)
// are served by a fake upstream, `sync rest` stores them, and Tickerbase's answer to the same
// request has the same results, field for field (request ids and next_url aside), on both
// engines. Numbers are compared as exact text (nanosecond times exceed 2^53).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planBackfill, runBackfill } from '../../src/ingest/rest-backfill.js';
import { parseJsonExact } from '../../src/ingest/source-records.js';
import type { Store } from '../../src/store/index.js';
import { UpstreamCallTally } from '../../src/upstream/call-tally.js';
import { UpstreamRestClient } from '../../src/upstream/rest-client.js';
import type { RestDatasetName } from '../../src/upstream/rest-datasets.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { engines } from '../helpers/engines.js';
import { FakeUpstream, recordedFixturesDir } from '../helpers/fake-upstream-rest.js';

const FIXTURES = recordedFixturesDir();
if (!FIXTURES) console.log('same-answer tests skipped: ../shared/fixtures/upstream (the recorded upstream bodies) is absent');
const now = () => Date.parse('2026-12-01T12:00:00Z');

type Obj = Record<string, unknown>;
/** The results of recorded bodies, pages joined. */
function recordedResults(...files: string[]): unknown[] {
  return files.flatMap((f) => {
    const r = (parseJsonExact(readFileSync(join(FIXTURES!, f), 'utf8')) as Obj).results;
    return Array.isArray(r) ? r : [r];
  });
}

interface Case {
  name: string;
  datasets: RestDatasetName[];
  tickers?: string[];
  from?: string;
  to?: string;
  /** The request asked of Tickerbase. */
  local: string;
  files: string[];
  /** Compare only local records whose key is among the recorded ones (lists holding more), in any order. */
  key?: (r: Obj) => string;
  /**
   * Fields Tickerbase writes on every record that this older recording lacks, each with the value
   * it must have; they are checked, then left out of the comparison.
   */
  added?: Record<string, (value: unknown, upstream: Obj) => boolean>;
}

const field = (name: string) => (r: Obj) => String(r[name]);
// upstream now gives every split and dividend an id; for records without one, Tickerbase derives it from the record
const derivedId = { id: (v: unknown) => typeof v === 'string' && v.length > 0 };

const CASES: Case[] = [
  { name: 'ticker overview', datasets: ['tickers'], tickers: ['AAPL'], local: '/v3/reference/tickers/AAPL', files: ['v3/reference/tickers/AAPL.json'],
    // Every stored ticker has a last update time; when upstream's overview gives none, the sync's time (as `import` does).
    added: { last_updated_utc: (v) => typeof v === 'string' && /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/.test(v) } },
  { name: 'ticker list (two pages)', datasets: ['tickers'], local: '/v3/reference/tickers?limit=1000', files: ['v3/reference/tickers.json', 'v3/reference/tickers~2.json'], key: field('ticker') },
  { name: 'exchanges', datasets: ['exchanges'], local: '/v3/reference/exchanges?asset_class=stocks&locale=us', files: ['v3/reference/exchanges.json'] },
  { name: 'conditions', datasets: ['conditions'], local: '/v3/reference/conditions?asset_class=stocks&limit=1000', files: ['v3/reference/conditions.json'],
    // upstream now writes legacy on every condition (false when it does not apply)
    added: { legacy: (v) => v === false } },
  { name: 'ticker types', datasets: ['ticker-types'], local: '/v3/reference/tickers/types?asset_class=stocks&locale=us', files: ['v3/reference/tickers/types.json'] },
  { name: 'day bars', datasets: ['aggs-day'], tickers: ['AAPL'], from: '2005-04-01', to: '2005-04-04', local: '/v2/aggs/ticker/AAPL/range/1/day/2005-04-01/2005-04-04?adjusted=false', files: ['v2/aggs/ticker/AAPL/range/1/day/2005-04-01/2005-04-04.json'] },
  { name: 'trades', datasets: ['trades'], tickers: ['AAPL'], from: '2018-02-02', to: '2018-02-02', local: '/v3/trades/AAPL?timestamp=2018-02-02&order=asc&limit=50000', files: ['v3/trades/AAPL.json'],
    // upstream now writes stock trade sizes also as decimal text
    added: { decimal_size: (v, u) => v === `${u.size}.0` } },
  { name: 'quotes (two pages)', datasets: ['quotes'], tickers: ['AAPL'], from: '2022-05-10', to: '2022-05-10', local: '/v3/quotes/AAPL?timestamp=2022-05-10&order=desc&limit=50000', files: ['v3/quotes/AAPL.json', 'v3/quotes/AAPL~2.json'] },
  { name: 'splits', datasets: ['splits'], local: '/v3/reference/splits?limit=1000', files: ['v3/reference/splits.json'], key: (r) => `${r.ticker} ${r.execution_date}`, added: derivedId },
  { name: 'dividends', datasets: ['dividends'], local: '/v3/reference/dividends?limit=1000', files: ['v3/reference/dividends.json'], key: (r) => `${r.ticker} ${r.ex_dividend_date}`, added: derivedId },
  { name: 'news', datasets: ['news'], from: '2022-04-28', to: '2022-04-28', local: '/v2/reference/news?limit=1000', files: ['v2/reference/news.json'], key: field('id') },
];

/** Records as exact JSON text with sorted keys, to compare whatever the key order. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    return `{${Object.keys(v as Obj).sort().map((k) => `${JSON.stringify(k)}:${canonical((v as Obj)[k])}`).join(',')}}`;
  }
  return JSON.stringify(v);
}

for (const engine of engines()) {
  describe.skipIf(!FIXTURES)(`same answer as upstream over recorded bodies (${engine.name})`, () => {
    let store: Store;
    let fake: FakeUpstream;
    let app: TestApp;
    const KEY = 'operator-upstream-key';

    beforeAll(async () => {
      store = await engine.open();
      fake = (await FakeUpstream.start()).recorded(FIXTURES!);
      app = await startTestApp(store, { envelope: 'native', now });
    });
    afterAll(async () => {
      await app.close();
      await fake.close();
      await store.close();
    });

    for (const c of CASES) {
      it(`${c.name}: ${c.local}`, async () => {
        const tally = new UpstreamCallTally();
        const client = new UpstreamRestClient({ baseUrl: fake.baseUrl, key: KEY, retries: 0, onEvent: tally.onEvent });
        const plan = await planBackfill(store, { datasets: c.datasets, tickers: c.tickers ?? [], allTickers: !c.tickers, from: c.from, to: c.to, now });
        const summary = await runBackfill(store, client, plan, { now, tally, log: () => {} });
        expect(summary.failures).toEqual([]);

        const res = await app.app.inject({ method: 'GET', url: c.local, headers: { 'x-api-key': app.key } });
        expect(res.statusCode).toBe(200);
        const body = parseJsonExact(res.body) as Obj;
        const upstream = recordedResults(...c.files);
        // the recording is not empty: a case that compares nothing proves nothing
        expect(upstream.length).toBeGreaterThan(0);
        let local = (Array.isArray(body.results) ? body.results : [body.results]) as Obj[];
        const recorded = upstream as Obj[];
        if (c.key) {
          const wanted = new Set(recorded.map(c.key));
          local = local.filter((r) => wanted.has(c.key!(r)));
          local.sort((a, b) => (c.key!(a) < c.key!(b) ? -1 : 1));
          recorded.sort((a, b) => (c.key!(a) < c.key!(b) ? -1 : 1));
        }
        expect(local).toHaveLength(recorded.length);
        const shown = local.map((r, i) => {
          const out = { ...r };
          for (const [name, ok] of Object.entries(c.added ?? {})) {
            if (recorded[i]![name] !== undefined) continue;
            expect(ok(out[name], recorded[i]!), `${name} = ${JSON.stringify(out[name])}`).toBe(true);
            delete out[name];
          }
          return canonical(out);
        });
        expect(shown).toEqual(recorded.map(canonical));
      });
    }
  });
}
