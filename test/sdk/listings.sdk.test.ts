import { describe, expect, it } from 'vitest';
import { buildCryptoBook } from '../../src/demo/crypto-book.js';
import { buildFuturesReferenceDemo } from '../../src/demo/futures.js';
import { buildIpoDemo, buildRelatedCompaniesDemo } from '../../src/demo/listings.js';
import { upsertSets } from '../../src/demo/partner.js';
import type { Store } from '../../src/store/index.js';
import { useNativeServer } from '../helpers/app-fixture.js';
import { engines } from '../helpers/engines.js';
import { FIXTURE_TICKERS } from '../helpers/reference-fixture.js';

const AS_OF = '2026-11-20';
const IPOS = buildIpoDemo(AS_OF);

async function seed(store: Store): Promise<void> {
  await store.reference.upsertTickers(FIXTURE_TICKERS);
  await upsertSets(store, { ipos: IPOS, 'related-companies': buildRelatedCompaniesDemo(), 'futures-products': buildFuturesReferenceDemo(AS_OF)['futures-products']! });
  await store.cryptoBooks.replaceBooks(buildCryptoBook('X:BTCUSD', 57_000, 1_795_204_800_000_000_000n));
}

// The official client, unmodified, on the demo's IPOs, related companies, futures products and a book.
for (const engine of engines()) {
  describe(`@massive.com/client-js on IPOs, related companies, futures market status and the crypto book (${engine.name})`, () => {
    const { server } = useNativeServer(engine, seed);

    it('listIPOs follows next_url across every page; getV1ReferenceIpos filters by status', async () => {
      const all = await server.client({ pagination: true }).listIPOs({ limit: 7 });
      expect(new Set(all.results?.map((r) => r.ticker))).toEqual(new Set(IPOS.map((r) => r.ticker)));
      expect(IPOS.length).toBeGreaterThan(7);
      const pending = await server.client().getV1ReferenceIpos({ ipoStatusAnyOf: 'pending' as never, limit: 100 });
      expect(pending.results?.length).toBe(IPOS.filter((r) => r.ipo_status === 'pending').length);
      expect(pending.results?.every((r) => r.ipo_status === 'pending')).toBe(true);
    });

    it('getRelatedCompanies', async () => {
      const res = await server.client().getRelatedCompanies({ ticker: 'AAPL' });
      expect(res.ticker).toBe('AAPL');
      expect(res.results?.slice(0, 2).map((r) => r.ticker)).toEqual(['CSCO', 'IBM']);
    });

    it('getFuturesV1MarketStatus', async () => {
      const res = await server.client().getFuturesV1MarketStatus({ productCodeAnyOf: 'ES,NQ' });
      expect(res.results?.map((r) => r.product_code)).toEqual(['ES', 'NQ']);
      expect(['pre_open', 'open', 'close']).toContain(res.results?.[0]?.market_event);
    });

    it('deprecatedGetCryptoSnapshotTickerBook', async () => {
      const res = await server.client().deprecatedGetCryptoSnapshotTickerBook({ ticker: 'X:BTCUSD' });
      expect(res.data?.ticker).toBe('X:BTCUSD');
      expect(res.data?.bids).toHaveLength(10);
      expect(res.data!.bids[0]!.p).toBeLessThan(res.data!.asks[0]!.p);
      expect(res.data?.updated).toBe(1_795_204_800_000);
    });
  });
}
