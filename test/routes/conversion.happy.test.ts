import { describe, expect, it } from 'vitest';
import { startTestApp } from '../helpers/app.js';
import { engines } from '../helpers/engines.js';
import { DAY, loadSnapshotFixture } from '../helpers/snapshot-fixture.js';
import { useSeededApp } from '../helpers/app-fixture.js';

// Quotes in the fixture (bid/ask): EUR/USD 1.1219/1.1221 at 15:58:30Z then 1.1299/1.1301 at 16:30Z;
// GBP/USD 1.2740/1.2742; USD/JPY 150.10/150.12; EUR/GBP 0.8601/0.8603. No GBP/JPY in either direction.
const CLOCK = Date.parse(`${DAY}T16:00:00Z`);
const EURUSD_MS = Date.parse(`${DAY}T15:58:30Z`);

for (const engine of engines()) {
  describe(`currency conversion (${engine.name})`, () => {
    let clock = CLOCK;
    const { store, t } = useSeededApp(engine, loadSnapshotFixture, { envelope: 'native', now: () => clock });

    async function ok(url: string, at = CLOCK) {
      clock = at;
      const res = await t.get(url);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body;
    }

    it('direct: amount × ask of the pair, with the quote used', async () => {
      const b = await ok('/v1/conversion/EUR/USD?amount=100');
      expect(b).toMatchObject({
        status: 'success',
        from: 'EUR',
        to: 'USD',
        initialAmount: 100,
        converted: 112.21,
        symbol: 'EUR/USD',
        last: { ask: 1.1221, bid: 1.1219, exchange: 48, timestamp: EURUSD_MS },
      });
      expect(b.request_id).toMatch(/^[0-9a-f]{32}$/);
    });

    it('uses the quote in force at the clock', async () => {
      const later = await ok('/v1/conversion/EUR/USD?amount=100', Date.parse(`${DAY}T17:00:00Z`));
      expect(later.converted).toBe(113.01);
      expect(later.last.bid).toBe(1.1299);
    });

    it('agrees with the last-quote endpoint for the pair', async () => {
      const last = await ok('/v1/last_quote/currencies/EUR/USD', Date.parse(`${DAY}T17:00:00Z`));
      const conv = await ok('/v1/conversion/EUR/USD', Date.parse(`${DAY}T17:00:00Z`));
      expect(conv.last).toEqual(last.last);
      expect(conv.symbol).toBe(last.symbol);
    });

    it('inverse: 1/bid of the stored opposite pair, reporting that stored quote', async () => {
      const b = await ok('/v1/conversion/usd/eur?amount=100');
      expect(b.converted).toBe(89.13); // 100 / 1.1219 = 89.1345…
      expect(b.symbol).toBe('EUR/USD');
      expect(b.last).toEqual({ ask: 1.1221, bid: 1.1219, exchange: 48, timestamp: EURUSD_MS });
      expect(b.from).toBe('USD');
    });

    it('cross through USD when neither orientation is stored', async () => {
      const b = await ok('/v1/conversion/GBP/JPY?amount=100');
      expect(b.symbol).toBe('GBP/JPY');
      expect(b.converted).toBe(19128.29); // 100 × 1.2742 × 150.12 = 19128.2904
      expect(b.last.ask).toBeCloseTo(1.2742 * 150.12, 10);
      expect(b.last.bid).toBeCloseTo(1.274 * 150.1, 10);
      // both legs inverted: JPY/USD from USD/JPY, USD/EUR from EUR/USD
      const c = await ok('/v1/conversion/JPY/EUR?amount=10000&precision=4');
      expect(c.converted).toBe(Math.round((10000 / 150.1 / 1.1219) * 1e4) / 1e4);
    });

    it('a direct pair wins over the cross', async () => {
      const b = await ok('/v1/conversion/EUR/GBP?amount=1000');
      expect(b.symbol).toBe('EUR/GBP');
      expect(b.converted).toBe(860.3);
    });

    it('amount defaults to 1 and precision to 2; precision 0..10, rounding half up on the decimal value', async () => {
      const b = await ok('/v1/conversion/EUR/USD');
      expect(b.initialAmount).toBe(1);
      expect(b.converted).toBe(1.12);
      expect((await ok('/v1/conversion/EUR/USD?amount=0.5&precision=4')).converted).toBe(0.5611); // 0.56105
      expect((await ok('/v1/conversion/EUR/USD?amount=123.45&precision=0')).converted).toBe(139);
      expect((await ok('/v1/conversion/EUR/USD?amount=1&precision=10')).converted).toBe(1.1221);
    });

    it('is wrapped in {ok,data} in the default envelope', async () => {
      const wrapped = await startTestApp(store, { now: () => CLOCK });
      try {
        const res = await wrapped.get('/v1/conversion/EUR/USD');
        expect(res.body).toMatchObject({ ok: true, data: { status: 'success', converted: 1.12 } });
      } finally {
        await wrapped.close();
      }
    });
  });
}
