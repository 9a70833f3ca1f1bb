import { describe, expect, it } from 'vitest';
import { CONDITIONS, EXCHANGES, TICKER_TYPES } from '../../src/demo/facts/reference.js';
import { engines } from '../helpers/engines.js';
import { FIXTURE_TICKERS, bulkTickers } from '../helpers/reference-fixture.js';
import { useNativeServer } from '../helpers/app-fixture.js';

// The official client, unmodified, against a native-mode server on a free port.
for (const engine of engines()) {
  describe(`@massive.com/client-js on the reference endpoints (${engine.name})`, () => {
    const { store, server } = useNativeServer(engine, async (store) => {
      await store.reference.upsertTickers([...FIXTURE_TICKERS, ...bulkTickers(120)]);
      await store.reference.replaceTickerTypes(TICKER_TYPES);
      await store.reference.replaceExchanges(EXCHANGES);
      await store.reference.replaceConditions(CONDITIONS);
    });

    it('getTicker returns the overview', async () => {
      const rest = server.client();
      const res = await rest.getTicker({ ticker: 'AAPL' });
      expect(res.status).toBe('OK');
      expect(res.results?.name).toBe('Apple Inc.');
      expect(res.results?.cik).toBe('0000320193');
    });

    it('listTickers follows next_url across every page', async () => {
      const rest = server.client({ pagination: true });
      const res = await rest.listTickers({ market: 'stocks' as never, limit: 25 });
      const tickers = (res.results ?? []).map((r) => r.ticker);
      const direct = await store.reference.listTickers({ market: 'stocks', active: true, sort: 'ticker', order: 'asc', limit: 10_000 });
      expect(new Set(tickers)).toEqual(new Set(direct.map((r) => r.record.ticker)));
      expect(tickers).toHaveLength(direct.length);
    });

    it('listTickerTypes, listExchanges and listConditions', async () => {
      const rest = server.client();
      const types = await rest.listTickerTypes({ assetClass: 'stocks' as never, locale: 'us' as never });
      expect(types.results?.map((t) => t.code)).toContain('CS');
      expect(types.count).toBe(24);
      const ex = await rest.listExchanges({ assetClass: 'stocks' as never });
      expect(ex.results?.find((e) => e.id === 10)?.mic).toBe('XNYS');
      const cond = await rest.listConditions({ assetClass: 'stocks' as never, limit: 5 });
      expect(cond.results).toHaveLength(5);
      expect(cond.next_url).toMatch(/\?cursor=/);
    });

    it('listConditions follows next_url across every page, each condition once', async () => {
      const rest = server.client({ pagination: true });
      const key3 = (c: { asset_class?: string; id?: number; type?: string }) => `${c.asset_class}/${c.id}/${c.type}`;
      for (const [params, expected] of [
        [{ limit: 7 }, CONDITIONS],
        [{ assetClass: 'stocks' as never, limit: 10 }, CONDITIONS.filter((c) => c.asset_class === 'stocks')],
        [{ sip: 'UTP' as never, sort: 'name' as never, order: 'desc' as never, limit: 4 }, CONDITIONS.filter((c) => c.sip_mapping?.UTP !== undefined)],
      ] as const) {
        // More than one page, so that the walk has next_url links to follow. Row order is not
        // checked here: the client's pagination puts later pages before earlier ones.
        expect(expected.length).toBeGreaterThan(params.limit);
        const res = await rest.listConditions(params);
        const rows = res.results ?? [];
        const keys = rows.map(key3);
        expect(new Set(keys).size, `${JSON.stringify(params)}: a condition came twice`).toBe(keys.length);
        expect([...keys].sort()).toEqual(expected.map(key3).sort());
        const seeded = new Map(CONDITIONS.map((c) => [key3(c), c]));
        // conditions always carry legacy and sip_mapping, as upstream writes them (false and {} when none applies)
        for (const r of rows) expect(r).toEqual({ legacy: false, sip_mapping: {}, ...seeded.get(key3(r)) });
      }
    });

    it('surfaces a 404 as a rejected promise carrying the upstream body', async () => {
      const rest = server.client();
      await expect(rest.getTicker({ ticker: 'NOPE' })).rejects.toMatchObject({ response: { status: 404, data: { status: 'NOT_FOUND' } } });
    });
  });
}
