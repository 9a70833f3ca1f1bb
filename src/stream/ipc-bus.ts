// The feed's bus among the workers of `serve --workers N` without Redis: the primary relays each
// worker's batches to the other workers over the cluster's IPC channels, and decides which
// worker emits each bar window (the first to ask). Workers and the primary are one host, so the
// channel is up for as long as the worker runs.
import type { Worker } from 'node:cluster';
import type { Broker } from './broker.js';
import { BusBroker, type BusTransport } from './bus-broker.js';
import type { Claim, Span, WindowClaims } from './window-claims.js';

type FeedMessage =
  | { tb: 'feed'; text: string }
  | { tb: 'claim'; id: number; key: string }
  | { tb: 'claimed'; id: number; won: boolean };

function isFeedMessage(m: unknown): m is FeedMessage {
  return typeof m === 'object' && m !== null && typeof (m as { tb?: unknown }).tb === 'string' && ['feed', 'claim', 'claimed'].includes((m as { tb: string }).tb);
}

/** How long the primary remembers a claimed window, ms. */
const CLAIM_TTL_MS = 10 * 60_000;

/**
 * In the primary: relays feed batches among `workers()` and answers window claims. Returns a
 * function that stops it.
 */
export function relayFeedAmongWorkers(cluster: { on(event: 'message', fn: (w: Worker, m: unknown) => void): unknown; off(event: 'message', fn: (w: Worker, m: unknown) => void): unknown }, workers: () => Worker[]): () => void {
  const claims = new Map<string, number>();
  let sweep = Date.now();
  const onMessage = (from: Worker, m: unknown) => {
    if (!isFeedMessage(m)) return;
    if (m.tb === 'feed') {
      for (const w of workers()) if (w !== from && w.isConnected()) w.send(m);
    } else if (m.tb === 'claim') {
      const now = Date.now();
      if (now - sweep > CLAIM_TTL_MS) {
        for (const [k, at] of claims) if (now - at > CLAIM_TTL_MS) claims.delete(k);
        sweep = now;
      }
      const won = !claims.has(m.key);
      if (won) claims.set(m.key, now);
      if (from.isConnected()) from.send({ tb: 'claimed', id: m.id, won } satisfies FeedMessage);
    }
  };
  cluster.on('message', onMessage);
  return () => cluster.off('message', onMessage);
}

/** The channel a worker has to its primary (node's `process` in a cluster worker). */
export interface PrimaryChannel {
  send?(message: unknown): boolean;
  connected?: boolean;
  on(event: 'message', fn: (m: unknown) => void): unknown;
  off(event: 'message', fn: (m: unknown) => void): unknown;
}

/** In a worker: the bus through the primary. */
export class IpcBus implements BusTransport {
  private readonly listeners: ((m: unknown) => void)[] = [];

  constructor(private readonly channel: PrimaryChannel) {}

  async send(text: string): Promise<void> {
    if (!this.up()) throw new Error('the channel to the primary is closed');
    this.channel.send!({ tb: 'feed', text } satisfies FeedMessage);
  }

  onMessage(handler: (message: string) => void): void {
    const fn = (m: unknown) => {
      if (isFeedMessage(m) && m.tb === 'feed') handler(m.text);
    };
    this.listeners.push(fn);
    this.channel.on('message', fn);
  }

  up(): boolean {
    return this.channel.connected === true && this.channel.send !== undefined;
  }

  onUp(): void {
    // up from the start and for as long as the worker runs
  }

  downReason(): string {
    return 'the channel to the primary process is closed';
  }

  async close(): Promise<void> {
    for (const fn of this.listeners) this.channel.off('message', fn);
    this.listeners.length = 0;
  }
}

/** In a worker: window claims answered by the primary (a silent primary leaves the worker alone). */
export class IpcWindowClaims implements WindowClaims {
  private nextId = 0;
  private readonly waiting = new Map<number, (won: boolean) => void>();

  constructor(
    private readonly channel: PrimaryChannel,
    private readonly timeoutMs = 1000,
  ) {
    channel.on('message', (m: unknown) => {
      if (!isFeedMessage(m) || m.tb !== 'claimed') return;
      this.waiting.get(m.id)?.(m.won);
      this.waiting.delete(m.id);
    });
  }

  claim(span: Span, start: number): Promise<Claim> {
    if (this.channel.connected !== true || !this.channel.send) return Promise.resolve('alone');
    const id = ++this.nextId;
    return new Promise<Claim>((resolve) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        resolve('alone');
      }, this.timeoutMs);
      timer.unref();
      this.waiting.set(id, (won) => {
        clearTimeout(timer);
        resolve(won ? 'won' : 'lost');
      });
      this.channel.send!({ tb: 'claim', id, key: `${span}:${start}` } satisfies FeedMessage);
    });
  }
}

/** A worker's feed options without Redis: the broker and the claims through the primary. */
export function workerFeed(channel: PrimaryChannel, log?: (msg: string) => void): { broker: Broker; claims: WindowClaims } {
  return { broker: new BusBroker(new IpcBus(channel), { origin: `worker-${process.pid}`, log }), claims: new IpcWindowClaims(channel) };
}
