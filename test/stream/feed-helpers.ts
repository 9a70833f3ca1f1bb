// A server with the feed attached on a loopback port, and a raw `ws` client that queues frames.
import type { FastifyInstance } from 'fastify';
import { WebSocket } from 'ws';
import { buildApp } from '../../src/app.js';
import { PlanCatalog, BUILTIN_PLANS, type PlanSpec } from '../../src/server/plans.js';
import { openStore, type Store } from '../../src/store/index.js';
import { attachStreaming, type Streaming, type StreamingOptions } from '../../src/stream/index.js';

export interface FeedServer {
  app: FastifyInstance;
  base: string;
  port: number;
  store: Store;
  streaming: Streaming;
  keyFor(plan: string): Promise<string>;
  close(): Promise<void>;
}

export const TEST_PLANS: Record<string, PlanSpec> = {
  ...BUILTIN_PLANS,
  stocks_only: { ...BUILTIN_PLANS.business!, markets: ['stocks'] },
  two_conns: { ...BUILTIN_PLANS.business!, stream_connections: 2 },
  no_feed: { ...BUILTIN_PLANS.business!, stream_connections: 0 },
};

export async function startFeedServer(
  opts: Partial<Omit<StreamingOptions, 'auth'>> & { store?: Store; adminToken?: string } = {},
): Promise<FeedServer> {
  const store = opts.store ?? (await openStore({ sqliteFile: ':memory:' }));
  const plans = opts.plans ?? new PlanCatalog(TEST_PLANS);
  const app = await buildApp({ store, config: { envelope: 'native' }, production: { plans, usage: false } });
  const streaming = await attachStreaming(app, { store, ...opts, auth: app.ctx.auth, plans });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as { port: number }).port;
  return {
    app,
    base: `ws://127.0.0.1:${port}`,
    port,
    store,
    streaming,
    async keyFor(plan) {
      return (await store.keys.create({ plan, label: 'stream test' })).key;
    },
    async close() {
      await app.close();
      await store.close();
    },
  };
}

export type Frame = Array<Record<string, unknown>>;

/** A raw client that keeps every frame it receives, in order. */
export class RawClient {
  readonly frames: Frame[] = [];
  private waiters: (() => void)[] = [];
  closeCode: number | undefined;
  readonly opened: Promise<void>;
  readonly closed: Promise<number>;

  constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      this.frames.push(JSON.parse(data.toString()) as Frame);
      this.wake();
    });
    this.opened = new Promise((res, rej) => {
      ws.once('open', () => res());
      ws.once('error', rej);
    });
    this.closed = new Promise((res) =>
      ws.once('close', (code) => {
        this.closeCode = code;
        this.wake();
        res(code);
      }),
    );
  }

  static async connect(url: string): Promise<RawClient> {
    const c = new RawClient(new WebSocket(url));
    await c.opened;
    return c;
  }

  private wake(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }

  send(msg: unknown): void {
    this.ws.send(typeof msg === 'string' ? msg : JSON.stringify(msg));
  }

  private read = 0;

  /** The next frame not yet taken. */
  async next(timeoutMs = 3000): Promise<Frame> {
    const deadline = Date.now() + timeoutMs;
    while (this.read >= this.frames.length) {
      if (this.closeCode !== undefined) throw new Error(`closed (${this.closeCode}) while waiting for a frame`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error('no frame within the timeout');
      await new Promise<void>((res) => {
        const t = setTimeout(res, left);
        this.waiters.push(() => {
          clearTimeout(t);
          res();
        });
      });
    }
    return this.frames[this.read++]!;
  }

  /** Statuses of the next frame. */
  async nextStatus(timeoutMs?: number): Promise<string> {
    const f = await this.next(timeoutMs);
    return f.map((o) => `${o.status}: ${o.message}`).join(' | ');
  }

  /** Events (not statuses) until `count` have arrived. */
  async events(count: number, timeoutMs = 3000): Promise<Array<Record<string, unknown>>> {
    const out: Array<Record<string, unknown>> = [];
    while (out.length < count) for (const e of await this.next(timeoutMs)) if (e.ev !== 'status') out.push(e);
    return out;
  }

  /** Connects, reads `connected`, authenticates and expects auth_success. */
  static async ready(url: string, key: string): Promise<RawClient> {
    const c = await RawClient.connect(url);
    await c.next();
    c.send({ action: 'auth', params: key });
    const s = await c.nextStatus();
    if (!s.startsWith('auth_success')) throw new Error(`auth: ${s}`);
    return c;
  }

  close(): void {
    this.ws.close();
  }
}
