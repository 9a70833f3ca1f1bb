// The official client, unmodified, on the futures market data endpoints of a native-mode server:
// aggregates, trades, quotes and the snapshot of the demo's futures data, next_url followed.
import { describe, expect, it } from 'vitest';
import { buildFuturesMarketDemo, storeFuturesMarketDemo } from '../../src/demo/futures-market.js';
import { futuresDemoStep } from '../../src/demo/futures.js';
import type { Store } from '../../src/store/index.js';
import { useNativeServer } from '../helpers/app-fixture.js';
import { engines } from '../helpers/engines.js';

const AS_OF = '2026-11-20';
const SCALE = 0.1;

async function seed(store: Store): Promise<void> {
  await futuresDemoStep.run(store, { asOf: AS_OF, scale: SCALE, log: () => {} });
  await storeFuturesMarketDemo(store, AS_OF, SCALE);
}

for (const engine of engines()) {
  describe(`@massive.com/client-js on the futures market data endpoints (${engine.name})`, () => {
    const { server } = useNativeServer(engine, seed);
    const demo = buildFuturesMarketDemo(AS_OF, SCALE);

    it('aggregatesV1 gives the session candles', async () => {
      const res = await server.client().aggregatesV1({ ticker: 'ESZ6', resolution: '1session', sort: 'window_start.asc' as never });
      expect(res.status).toBe('OK');
      expect(res.results.map((c) => c.session_end_date)).toEqual(['2026-11-19', '2026-11-20']);
      expect(res.results[1]!.close).toBe(demo.bars.filter((b) => b.ticker === 'ESZ6').at(-1)!.close);
    });

    it('getFuturesV1TradesTicker and getFuturesV1QuotesTicker follow next_url to every tick', async () => {
      const rest = server.client({ pagination: true });
      const trades = await rest.getFuturesV1TradesTicker({ ticker: 'CLZ6', limit: 40 });
      const seqs = (rows: { sequence_number: number }[]) => rows.map((r) => r.sequence_number).sort((a, b) => a - b);
      expect(seqs(trades.results)).toEqual(seqs(demo.trades.filter((t) => t.ticker === 'CLZ6').map((t) => ({ sequence_number: Number(t.sequence_number) }))));
      expect(trades.results.every((t) => t.ticker === 'CLZ6' && t.channel === 382)).toBe(true);
      const quotes = await rest.getFuturesV1QuotesTicker({ ticker: 'CLZ6', limit: 40, sessionEndDate: '2026-11-19' });
      expect(quotes.results).toHaveLength(demo.quotes.filter((q) => q.ticker === 'CLZ6' && q.session_end_date === '2026-11-19').length);
    });

    it('getFuturesV1Snapshot lists the contracts of a product', async () => {
      const res = await server.client().getFuturesV1Snapshot({ productCode: 'GC' });
      const tickers = res.results.map((r) => r.details?.ticker);
      expect(tickers).toContain('GCZ6');
      expect(res.results.find((r) => r.details?.ticker === 'GCZ6')?.last_trade?.price).toBe(demo.trades.filter((t) => t.ticker === 'GCZ6').at(-1)!.price);
    });
  });
}
