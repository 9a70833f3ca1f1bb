import { describe, expect, it } from 'vitest';
import { engines } from '../helpers/engines.js';
import { useSeededApp } from '../helpers/app-fixture.js';
import { expectNativeRejection } from '../helpers/bad-request.js';

for (const engine of engines()) {
  describe(`technical indicators: bad requests (${engine.name})`, () => {
    const { store, t } = useSeededApp(engine, async () => {}, { envelope: 'native' });

    it.each([
      ['/v1/indicators/sma/AAPL?window=0', 'window must be an integer from 1 to 5000'],
      ['/v1/indicators/ema/AAPL?window=abc', 'window must be an integer from 1 to 5000'],
      ['/v1/indicators/rsi/AAPL?window=5001', 'window must be an integer from 1 to 5000'],
      ['/v1/indicators/macd/AAPL?short_window=0', 'short_window must be an integer from 1 to 5000'],
      ['/v1/indicators/macd/AAPL?long_window=2.5', 'long_window must be an integer from 1 to 5000'],
      ['/v1/indicators/macd/AAPL?signal_window=-1', 'signal_window must be an integer from 1 to 5000'],
      ['/v1/indicators/sma/AAPL?timespan=second', 'timespan must be one of: minute, hour, day, week, month, quarter, year'],
      ['/v1/indicators/sma/AAPL?series_type=median', 'series_type must be one of: open, high, low, close'],
      ['/v1/indicators/sma/AAPL?order=sideways', 'order must be one of: asc, desc'],
      ['/v1/indicators/sma/AAPL?limit=5001', 'limit must be an integer from 1 to 5000'],
      ['/v1/indicators/sma/AAPL?limit=0', 'limit must be an integer from 1 to 5000'],
      ['/v1/indicators/sma/AAPL?adjusted=perhaps', 'adjusted must be true or false'],
      ['/v1/indicators/sma/AAPL?expand_underlying=yes', 'expand_underlying must be true or false'],
      ['/v1/indicators/sma/AAPL?timestamp=yesterday', 'timestamp must be a date in the form YYYY-MM-DD or a Unix timestamp'],
      ['/v1/indicators/sma/AAPL?timestamp.gte=2026-02-30', 'timestamp.gte must be a date in the form YYYY-MM-DD or a Unix timestamp'],
      ['/v1/indicators/ema/AAPL?timestamp.lt=12.5', 'timestamp.lt must be a date in the form YYYY-MM-DD or a Unix timestamp'],
      ['/v1/indicators/rsi/AAPL?cursor=not-a-cursor', 'cursor is invalid'],
    ])('%s → 400 naming the parameter', (url, message) => expectNativeRejection(t, url, message, 'contains'));

    it("a cursor from one indicator is refused by another", async () => {
      const now = Date.now();
      await store.market.insertBars('day', Array.from({ length: 30 }, (_, i) => ({ ticker: 'CUR', t: now - (30 - i) * 86_400_000, o: 1, h: 1, l: 1, c: 1 + i, v: 1 })));
      const first = await t.get('/v1/indicators/sma/CUR?window=2&limit=5');
      const cursor = new URL(first.body.next_url).searchParams.get('cursor')!;
      expect((await t.get(`/v1/indicators/sma/CUR?cursor=${cursor}`)).status).toBe(200);
      expect((await t.get(`/v1/indicators/ema/CUR?cursor=${cursor}`)).status).toBe(400);
    });

    it('the key never appears in next_url or underlying.url', async () => {
      const res = await t.get(`/v1/indicators/sma/CUR?window=2&limit=5&apiKey=${t.key}`);
      expect(res.status).toBe(200);
      expect(res.body.next_url).not.toContain(t.key);
      expect(res.body.results.underlying.url).not.toContain(t.key);
    });
  });
}
