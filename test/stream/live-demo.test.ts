// The live demo market: a client subscribing sees events at once, prices continue from the
// stored last prices, the rate is about what was asked, and the tape is stored like any publish.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLiveDemo, type LiveDemo } from '../../src/demo/live.js';
import { RawClient, startFeedServer, type FeedServer } from './feed-helpers.js';

let server: FeedServer;
let demo: LiveDemo;

beforeAll(async () => {
  server = await startFeedServer({ connectionLimit: 10 });
  await server.store.market.insertTrades([{
    ticker: 'AAPL', sip_timestamp: 1749825065000000000n, participant_timestamp: undefined, trf_timestamp: undefined,
    price: 150, size: 100, exchange: 4, id: 'seed', conditions: undefined, correction: undefined, sequence_number: undefined, tape: 3, trf_id: undefined,
  }]);
  await server.store.market.insertBars('day', [{ ticker: 'X:BTCUSD', t: 1749787200000, o: 1, h: 1, l: 1, c: 90_000, v: 1, vw: undefined, n: 1 }]);
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

    const startedAt = Date.now();
    demo = await startLiveDemo({ market: server.store.market, publish: (items) => server.streaming.publisher.publish(items), rate: 400 });
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
    stocks.close();
    crypto.close();
  });
});
