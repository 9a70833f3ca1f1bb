import { describe, expect, it } from 'vitest';
import { engines } from '../helpers/engines.js';
import { startTestApp, walkPages } from '../helpers/app.js';
import { FIXTURE_TICKERS, bulkTickers } from '../helpers/reference-fixture.js';
import { useSeededApps } from '../helpers/app-fixture.js';

for (const engine of engines()) {
  describe(`tickers (${engine.name})`, () => {
    const { store, apps: [t, native] } = useSeededApps(engine, (store) => store.reference.upsertTickers(FIXTURE_TICKERS), {}, { envelope: 'native' });

    const tickers = (body: any) => body.results.map((r: any) => r.ticker);

    it('lists active tickers in byte-wise ticker order inside the seed envelope', async () => {
      const res = await t.get('/v3/reference/tickers');
      expect(res.status).toBe(200);
      expect(res.body.ok).toBe(true);
      const data = res.body.data;
      expect(data.status).toBe('OK');
      expect(data.request_id).toMatch(/^[0-9a-f]{32}$/);
      expect(res.headers['x-request-id']).toBe(data.request_id);
      expect(tickers(data)).toEqual(['AAPL', 'AAPL.WS', 'AAPW', 'BRK.A', 'C:EURUSD', 'I:SPX', 'MSFT', 'OTCX', 'SPY', 'X:BTCUSD', 'ZZRN']);
      expect(data.count).toBe(11);
      expect(data.next_url).toBeUndefined();
    });

    it('serves the flat upstream body in native mode', async () => {
      const res = await native.get('/v3/reference/tickers?limit=2');
      expect(res.body.ok).toBeUndefined();
      expect(res.body.status).toBe('OK');
      expect(res.body.count).toBe(2);
      expect(res.body.next_url).toMatch(/^http:\/\/localhost(:\d+)?\/v3\/reference\/tickers\?cursor=/);
    });

    it('never returns cusip, and omits fields that have no value', async () => {
      const res = await t.get('/v3/reference/tickers?ticker=AAPL.WS');
      const row = res.body.data.results[0];
      expect(row).toEqual({ ticker: 'AAPL.WS', name: 'Apple Warrant Test', market: 'stocks', locale: 'us', primary_exchange: 'XNAS', type: 'WARRANT', active: true, currency_name: 'usd', last_updated_utc: '2026-11-20T00:00:00Z' });
      const aapl = (await t.get('/v3/reference/tickers?cusip=037833100')).body.data.results;
      expect(aapl.map((r: any) => r.ticker)).toEqual(['AAPL']);
      expect(aapl[0].cusip).toBeUndefined();
    });

    it('filters by type, market, exchange, cik, and ticker ranges', async () => {
      expect(tickers((await t.get('/v3/reference/tickers?type=ETF')).body.data)).toEqual(['SPY']);
      expect(tickers((await t.get('/v3/reference/tickers?type=INDEX')).body.data)).toEqual(['I:SPX']);
      expect(tickers((await t.get('/v3/reference/tickers?market=crypto')).body.data)).toEqual(['X:BTCUSD']);
      expect(tickers((await t.get('/v3/reference/tickers?market=otc')).body.data)).toEqual(['OTCX']);
      expect(tickers((await t.get('/v3/reference/tickers?exchange=ARCX')).body.data)).toEqual(['SPY']);
      expect(tickers((await t.get('/v3/reference/tickers?cik=0000789019')).body.data)).toEqual(['MSFT']);
      expect(tickers((await t.get('/v3/reference/tickers?ticker.gte=AAPL.WS&ticker.lt=BRK.A')).body.data)).toEqual(['AAPL.WS', 'AAPW']);
      expect(tickers((await t.get('/v3/reference/tickers?ticker.gt=SPY')).body.data)).toEqual(['X:BTCUSD', 'ZZRN']);
      expect(tickers((await t.get('/v3/reference/tickers?ticker.lte=AAPW&market=stocks')).body.data)).toEqual(['AAPL', 'AAPL.WS', 'AAPW']);
    });

    it('searches ticker and name case-insensitively, with wildcards taken literally', async () => {
      expect(tickers((await t.get('/v3/reference/tickers?search=apple')).body.data)).toEqual(['AAPL', 'AAPL.WS']);
      expect(tickers((await t.get('/v3/reference/tickers?search=brk')).body.data)).toEqual(['BRK.A']);
      expect(tickers((await t.get('/v3/reference/tickers?search=%25')).body.data)).toEqual([]);
      expect(tickers((await t.get('/v3/reference/tickers?search=s%26p')).body.data)).toEqual(['SPY']);
      expect(tickers((await t.get('/v3/reference/tickers?search=POOR')).body.data)).toEqual(['I:SPX']);
    });

    it('lists delisted tickers with active=false', async () => {
      const data = (await t.get('/v3/reference/tickers?active=false')).body.data;
      expect(tickers(data)).toEqual(['GONE']);
      expect(data.results[0].active).toBe(false);
      expect(data.results[0].delisted_utc).toBe('2023-05-17T00:00:00Z');
    });

    it('answers as of a date: old names, and tickers delisted later shown active', async () => {
      const then = (await t.get('/v3/reference/tickers?date=2020-06-01&ticker=ZZRN')).body.data.results;
      expect(then.map((r: any) => [r.name, r.primary_exchange])).toEqual([['Old Name Holdings', 'XNYS']]);
      const now = (await t.get('/v3/reference/tickers?ticker=ZZRN')).body.data.results;
      expect(now.map((r: any) => r.name)).toEqual(['New Name Platforms']);
      const gone = (await t.get('/v3/reference/tickers?date=2022-01-03&ticker=GONE')).body.data.results;
      expect(gone).toHaveLength(1);
      expect(gone[0].active).toBe(true);
      const before = (await t.get('/v3/reference/tickers?date=1990-01-02&market=stocks')).body.data;
      expect(tickers(before)).toEqual(['AAPL', 'BRK.A', 'MSFT']);
    });

    it('sorts by any listed field in either order', async () => {
      const byName = (await t.get('/v3/reference/tickers?sort=name&market=stocks&limit=3')).body.data;
      expect(byName.results.map((r: any) => r.name)).toEqual(['Apple Inc.', 'Apple Warrant Test', 'Awesome Pawn Corp']);
      const desc = (await t.get('/v3/reference/tickers?order=desc&limit=2')).body.data;
      expect(tickers(desc)).toEqual(['ZZRN', 'X:BTCUSD']);
      const byCik = (await t.get('/v3/reference/tickers?sort=cik&order=desc&limit=3')).body.data;
      expect(byCik.results.map((r: any) => r.cik)).toEqual(['0001067983', '0000789019', '0000320193']);
    });

    it('shows the overview with every stored field and absolute branding URLs', async () => {
      const res = await t.get('/v3/reference/tickers/AAPL');
      expect(res.status).toBe(200);
      const r = res.body.data.results;
      expect(res.body.data.count).toBeUndefined();
      expect(r).toMatchObject({ ticker: 'AAPL', name: 'Apple Inc.', cik: '0000320193', sic_code: '3571', round_lot: 100, list_date: '1980-12-12', address: { city: 'Cupertino' } });
      expect(r.branding.logo_url).toMatch(/^http:\/\/localhost(:\d+)?\/v1\/reference\/company-branding\/logo\/aapl\.svg$/);
      expect(r.cusip).toBeUndefined();
      expect(r.valid_from).toBeUndefined();
    });

    it('takes tickers with dots and percent-encoded colons, and a trailing slash', async () => {
      expect((await t.get('/v3/reference/tickers/BRK.A')).body.data.results.ticker_suffix).toBe('A');
      expect((await t.get('/v3/reference/tickers/X%3ABTCUSD')).body.data.results.base_currency_symbol).toBe('BTC');
      expect((await t.get('/v3/reference/tickers/X:BTCUSD/')).status).toBe(200);
      expect((await t.get('/v3/reference/tickers/')).status).toBe(200);
    });

    it('shows the overview as of a date', async () => {
      expect((await t.get('/v3/reference/tickers/ZZRN?date=2019-01-02')).body.data.results.name).toBe('Old Name Holdings');
      expect((await t.get('/v3/reference/tickers/ZZRN')).body.data.results.name).toBe('New Name Platforms');
      expect((await t.get('/v3/reference/tickers/AAPL?date=1970-01-02')).status).toBe(404);
    });

    it('walks every page exactly once, in order, even with inserts between pages', async () => {
      await store.reference.upsertTickers(bulkTickers(250));
      const all = (await t.get('/v3/reference/tickers?market=stocks&limit=1000')).body.data.results.map((r: any) => r.ticker);
      let inserted = 0;
      const pages = await walkPages(t, '/v3/reference/tickers?market=stocks&limit=37', async (page) => {
        // New tickers land both behind and ahead of the walk's position.
        await store.reference.upsertTickers(bulkTickers(2, `N${page}X`).concat(bulkTickers(1, `A${page}X`)));
        inserted += 3;
      });
      const seen = pages.flatMap((p) => p.results.map((r: any) => r.ticker));
      expect(new Set(seen).size).toBe(seen.length);
      for (const tk of all) expect(seen).toContain(tk);
      expect([...seen].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))).toEqual(seen);
      expect(pages.every((p) => p.count === p.results.length)).toBe(true);
      expect(pages[pages.length - 1].next_url).toBeUndefined();
      expect(inserted).toBeGreaterThan(0);
    });

    it('keeps the query in the cursor: a page URL alone reproduces the filter and sort', async () => {
      const first = (await t.get('/v3/reference/tickers?sort=name&order=desc&market=stocks&limit=5')).body.data;
      const next = new URL(first.next_url);
      expect(next.search).toMatch(/^\?cursor=[^&]+$/);
      const second = (await t.get(next.pathname + next.search)).body.data;
      const names = [...first.results, ...second.results].map((r: any) => r.name);
      expect(names).toEqual([...names].sort().reverse());
    });

    it('builds next_url from the configured public URL', async () => {
      const pub = await startTestApp(store, { publicUrl: 'https://md.example.com/api' });
      try {
        const data = (await pub.get('/v3/reference/tickers?limit=1')).body.data;
        expect(data.next_url.startsWith('https://md.example.com/api/v3/reference/tickers?cursor=')).toBe(true);
      } finally {
        await pub.close();
      }
    });
  });
}
