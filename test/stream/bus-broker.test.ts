// The broker of several processes over a bus that goes down and comes back: the publishing
// process's subscribers always get its events at once; published ticks are kept in order for the
// other processes and sent once the bus is back; bars are not kept; the kept events are bounded.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BrokerEvent } from '../../src/stream/broker.js';
import { BusBroker, type BusTransport } from '../../src/stream/bus-broker.js';

/** Two processes' ends of one bus that the test can cut. */
class FakeBus implements BusTransport {
  isUp = true;
  peers: FakeBus[] = [];
  private readonly handlers: ((m: string) => void)[] = [];
  private readonly upHandlers: (() => void)[] = [];

  async send(message: string): Promise<void> {
    if (!this.isUp) throw new Error('down');
    for (const p of [this, ...this.peers]) for (const h of p.handlers) h(message);
  }
  onMessage(h: (m: string) => void): void {
    this.handlers.push(h);
  }
  up(): boolean {
    return this.isUp;
  }
  onUp(h: () => void): void {
    this.upHandlers.push(h);
  }
  downReason(): string {
    return 'the test cut the bus';
  }
  async close(): Promise<void> {}
  setUp(up: boolean): void {
    this.isUp = up;
    if (up) for (const h of this.upHandlers) h();
  }
}

const ev = (n: number): BrokerEvent => ({ market: 'stocks', ev: 'T', symbol: 'BUS', json: `{"ev":"T","sym":"BUS","i":"${n}"}` });
const ids = (batches: (readonly BrokerEvent[])[]) => batches.flat().map((e) => JSON.parse(e.json).i as string);

function pair(opts: { maxQueuedEvents?: number } = {}) {
  const busA = new FakeBus();
  const busB = new FakeBus();
  busA.peers = [busB];
  busB.peers = [busA];
  const a = new BusBroker(busA, { origin: 'a', rejoinDelayMs: 100, ...opts });
  const b = new BusBroker(busB, { origin: 'b', rejoinDelayMs: 100 });
  const atA: (readonly BrokerEvent[])[] = [];
  const atB: (readonly BrokerEvent[])[] = [];
  a.onEvents((e) => atA.push(e));
  b.onEvents((e) => atB.push(e));
  return { busA, a, b, atA, atB };
}

describe('the broker over a bus that goes down', () => {
  afterEach(() => vi.useRealTimers());

  it('delivers here once and there once while the bus is up', async () => {
    const { a, atA, atB } = pair();
    expect(await a.publish([ev(1)], { durable: true })).toBe('shared');
    expect(ids(atA)).toEqual(['1']);
    expect(ids(atB)).toEqual(['1']);
    expect(a.status()).toEqual({ shared: true, queued: 0 });
  });

  it('keeps published ticks in order while down and sends them after the bus is back; bars are not kept', async () => {
    vi.useFakeTimers();
    const { busA, a, atA, atB } = pair();
    busA.isUp = false;
    expect(await a.publish([ev(1), ev(2)], { durable: true })).toBe('queued');
    expect(await a.publish([ev(99)])).toBe('local'); // a bar: each process makes its own meanwhile
    expect(await a.publish([ev(3)], { durable: true })).toBe('queued');
    expect(ids(atA)).toEqual(['1', '2', '99', '3']);
    expect(atB).toEqual([]);
    expect(a.status()).toMatchObject({ shared: false, queued: 3, reason: 'the test cut the bus' });
    busA.setUp(true);
    expect(atB).toEqual([]); // the others are given time to subscribe again
    await vi.advanceTimersByTimeAsync(150);
    expect(ids(atB)).toEqual(['1', '2', '3']);
    expect(ids(atA)).toEqual(['1', '2', '99', '3']); // not twice here
    expect(a.status()).toEqual({ shared: true, queued: 0 });
  });

  it('gives the other aggregators the trades sent live, not those sent late after an outage', async () => {
    vi.useFakeTimers();
    const { busA, a, b } = pair();
    const prints: string[] = [];
    b.onRemotePrints((p) => prints.push(...p.map((x) => x.t)));
    const print = (t: string) => ({ prints: [{ ticker: 'BUS', t, p: 1, s: 1 }], durable: true });
    await a.publish([ev(1)], print('1000'));
    busA.isUp = false;
    await a.publish([ev(2)], print('2000'));
    busA.setUp(true);
    await vi.advanceTimersByTimeAsync(150);
    expect(prints).toEqual(['1000']); // each process made the bars of the outage alone
  });

  it('keeps at most maxQueuedEvents, dropping the oldest batches', async () => {
    vi.useFakeTimers();
    const { busA, a, atB } = pair({ maxQueuedEvents: 2 });
    busA.isUp = false;
    for (let i = 1; i <= 4; i++) await a.publish([ev(i)], { durable: true });
    busA.setUp(true);
    await vi.advanceTimersByTimeAsync(150);
    expect(ids(atB)).toEqual(['3', '4']);
  });
});
