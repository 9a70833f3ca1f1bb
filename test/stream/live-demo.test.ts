// The live demo market: a client subscribing sees events at once, prices continue from the
// stored last prices, the rate is about what was asked, and the tape is stored like any publish.
// The tape's clock runs from 10:00 ET of the last completed session, when every market trades.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { frontContracts } from '../../src/demo/futures-market.js';
import { startLiveDemo, type LiveDemo } from '../../src/demo/live.js';
import { lastCompletedSession, nyDateOf, nyTime } from '../../src/domain/calendar.js';
import { RawClient, startFeedServer, type FeedServer } from './feed-helpers.js';

let server: FeedServer;
let demo: LiveDemo;
const clockStart = nyTime(lastCompletedSession(Date.now()), '10:00');
/** The E-mini S&P front contract that day, with a stored trade the tape continues from. */
const es = frontContracts(nyDateOf(clockStart)).find((c) => c.product.code === 'ES')!.ticker;

beforeAll(async () => {
  server = await startFeedServer({ connectionLimit: 10 });
  await server.store.market.insertTrades([{
    ticker: 'AAPL', sip_timestamp: 1749825065000000000n, participant_timestamp: undefined, trf_timestamp: undefined,
    price: 150, size: 100, exchange: 4, id: 'seed', conditions: undefined, correction: undefined, sequence_number: undefined, tape: 3, trf_id: undefined,
  }]);
  await server.store.market.insertBars('day', [{ ticker: 'X:BTCUSD', t: 1749787200000, o: 1, h: 1, l: 1, c: 90_000, v: 1, vw: undefined, n: 1 }]);
  const ns = BigInt(clockStart - 60_000) * 1_000_000n;
  await server.store.futures.insertTrades([{ ticker: es, timestamp: ns, sequence_number: 5000n, session_end_date: '2025-06-13', price: 6000, size: 1 }]);
});
afterAll(async () => {
  await demo?.stop();
  await server.close();
});

describe('live demo market', () => {
  it('streams trades and quotes continuing from the stored prices, at about the asked rate', async () => {
    const stocks = await RawClient.ready(`${server.base}/stocks`, await server.keyFor('demo'));
    stocks.send({ action: 'subscribe', params: 'T.*,Q.*' });
    await stocks.next();
    await stocks.next();
    const crypto = await RawClient.ready(`${server.base}/crypto`, await server.keyFor('demo'));
    crypto.send({ action: 'subscribe', params: 'XT.BTC-USD' });
    await crypto.next();
    const futures = await RawClient.ready(`${server.base}/futures`, await server.keyFor('demo'));
    futures.send({ action: 'subscribe', params: `T.${es},Q.${es}` });
    await futures.next();
    await futures.next();

    const startedAt = Date.now();
    demo = await startLiveDemo({ market: server.store.market, futures: server.store.futures, publish: (items) => server.streaming.publisher.publish(items), rate: 400, now: () => clockStart + (Date.now() - startedAt) });
    const first = await stocks.events(1, 2000);
    expect(Date.now() - startedAt).toBeLessThan(1000);
    expect(['T', 'Q']).toContain(first[0]!.ev);
    const btc = await crypto.events(1, 5000);
    expect(btc[0]!.pair).toBe('BTC-USD');
    expect(btc[0]!.p as number).toBeGreaterThan(85_000);
    expect(btc[0]!.p as number).toBeLessThan(95_000);

    await new Promise((r) => setTimeout(r, 2000));
    const sentIn = demo.sent();
    const elapsed = (Date.now() - startedAt) / 1000;
    expect(sentIn / elapsed).toBeGreaterThan(400 * 0.5); // a loaded machine skips ticks; never more than asked
    expect(sentIn / elapsed).toBeLessThan(400 * 1.3);
    const aapl = stocks.frames.flat().filter((e) => e.ev === 'T' && e.sym === 'AAPL');
    expect(aapl.length).toBeGreaterThan(0);
    for (const t of aapl) expect(Math.abs((t.p as number) - 150)).toBeLessThan(5);
    // stored, so REST's last trade follows the tape
    expect((await server.store.market.lastTrade('AAPL'))!.id).not.toBe('seed');

    // futures: on the contract's 0.25 tick, near the stored price, numbered after the stored trade
    const esEvents = await futures.events(4, 5000);
    for (const e of esEvents) {
      const p = (e.ev === 'T' ? e.p : e.ap) as number;
      expect(Math.abs(p - 6000)).toBeLessThan(60);
      expect((p * 4) % 1).toBe(0);
    }
    const esTrades = futures.frames.flat().filter((e) => e.ev === 'T');
    expect(esTrades.length).toBeGreaterThan(0);
    expect(esTrades.every((e) => (e.q as number) > 5000)).toBe(true);
    expect((await server.store.futures.lastTrade(es, BigInt(Date.now() + 1000) * 1_000_000n))!.sequence_number).toBeGreaterThan(5000n);
    stocks.close();
    crypto.close();
    futures.close();
  });
});
