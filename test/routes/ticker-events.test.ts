import { describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/index.js';
import type { TickerRecord } from '../../src/store/records.js';
import { useSeededApps } from '../helpers/app-fixture.js';
import { expectSameShape, skipConformance, upstreamBody } from '../helpers/conformance.js';
import { haveUpstreamOpenapi, upstreamBodyDifferences } from '../helpers/upstream-openapi.js';
import { engines } from '../helpers/engines.js';
import { FIXTURE_TICKERS } from '../helpers/reference-fixture.js';

// Ticker events derived from stored ticker versions: an entity (one composite FIGI) that traded as
// FB and then META, a later company that took the free FB symbol, a same-symbol rename (ZZRN) and
// the fixture's plain tickers.

const base = { locale: 'us' as const, market: 'stocks' as const, type: 'CS', active: true, last_updated_utc: '2026-11-20T00:00:00Z' };
const META_FIGI = 'BBG000MM2P62';
const HISTORY: TickerRecord[] = [
  { ...base, ticker: 'FB', name: 'Facebook, Inc.', composite_figi: META_FIGI, cik: '0001326801', cusip: '30303M102', valid_from: '2012-05-18', valid_to: '2021-10-28' },
  { ...base, ticker: 'FB', name: 'Meta Platforms, Inc.', composite_figi: META_FIGI, cik: '0001326801', cusip: '30303M102', valid_from: '2021-10-28', valid_to: '2022-06-09' },
  { ...base, ticker: 'META', name: 'Meta Platforms, Inc. Class A Common Stock', composite_figi: META_FIGI, cik: '0001326801', cusip: '30303M102', valid_from: '2022-06-09' },
  { ...base, ticker: 'FB', name: 'ProShares S&P 500 Dynamic Buffer ETF', type: 'ETF', composite_figi: 'BBG01NEWFB00', valid_from: '2024-01-02' },
];

async function seed(store: Store): Promise<void> {
  await store.reference.upsertTickers([...FIXTURE_TICKERS, ...HISTORY]);
}

const META_EVENTS = [
  { type: 'ticker_change', event_type: 'ticker_change', date: '2022-06-09', ticker_change: { ticker: 'META' } },
  { type: 'ticker_change', event_type: 'ticker_change', date: '2012-05-18', ticker_change: { ticker: 'FB' } },
];

for (const engine of engines()) {
  describe(`ticker events (${engine.name})`, () => {
    const { apps: [t, wrapped] } = useSeededApps(engine, seed, { envelope: 'native' }, { envelope: 'wrapped' });

    async function results(url: string) {
      const res = await t.get(url);
      expect(res.status, `${url}: ${JSON.stringify(res.body)}`).toBe(200);
      expect(res.body.status).toBe('OK');
      return res.body.results;
    }

    it('lists every symbol of the entity a ticker represents, newest first, with its current name', async () => {
      expect(await results('/vX/reference/tickers/META/events')).toEqual({
        name: 'Meta Platforms, Inc. Class A Common Stock', composite_figi: META_FIGI, cik: '0001326801', events: META_EVENTS,
      });
    });

    it('takes the same entity by composite FIGI or CUSIP', async () => {
      expect((await results(`/vX/reference/tickers/${META_FIGI}/events`)).events).toEqual(META_EVENTS);
      expect((await results('/vX/reference/tickers/30303M102/events')).events).toEqual(META_EVENTS);
    });

    it('a reused symbol names the entity that holds it now', async () => {
      const fb = await results('/vX/reference/tickers/FB/events');
      expect(fb.name).toBe('ProShares S&P 500 Dynamic Buffer ETF');
      expect(fb.events).toEqual([{ type: 'ticker_change', event_type: 'ticker_change', date: '2024-01-02', ticker_change: { ticker: 'FB' } }]);
    });

    it('a rename under the same symbol is no ticker change; a plain ticker has its listing as its one event', async () => {
      expect((await results('/vX/reference/tickers/ZZRN/events')).events).toEqual([{ type: 'ticker_change', event_type: 'ticker_change', date: '2010-01-04', ticker_change: { ticker: 'ZZRN' } }]);
      expect(await results('/vX/reference/tickers/AAPL/events?types=ticker_change')).toMatchObject({
        name: 'Apple Inc.', events: [{ type: 'ticker_change', event_type: 'ticker_change', date: '1980-12-12', ticker_change: { ticker: 'AAPL' } }],
      });
      expect((await results('/vX/reference/tickers/GONE/events')).events).toHaveLength(1);
    });

    it('answers 404 for an id with nothing stored (tickers are case-sensitive) and 400 for an unknown event type', async () => {
      for (const id of ['NOPE', 'meta', 'BBG000000000']) {
        const res = await wrapped.get(`/vX/reference/tickers/${id}/events`);
        expect(res.status, id).toBe(404);
      }
      const res = await wrapped.get('/vX/reference/tickers/META/events?types=ticker_change,merger');
      expect(res.status).toBe(400);
      expect(res.body.data.message).toMatch(/^types must be .*merger/);
    });

    it('has the field names and JSON types of the recorded upstream body', async () => {
      const upstream = upstreamBody('vX/reference/tickers/META/events.json');
      if (!upstream) return skipConformance('/vX/reference/tickers/{id}/events');
      // event_type is what upstream's OpenAPI schema names (and requires); its bodies say type: both are written
      const body = (await t.get('/vX/reference/tickers/META/events')).body;
      expectSameShape(body, upstream, { allowExtra: ['results.events[].event_type'] });
      if (haveUpstreamOpenapi) expect(upstreamBodyDifferences('/vX/reference/tickers/{id}/events', body, ['.results.composite_figi', '.results.cik', '.results.events[].type'])).toEqual([]);
    });
  });
}
