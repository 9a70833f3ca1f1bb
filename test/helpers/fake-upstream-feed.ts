// A stand-in for upstream's WebSocket feed on 127.0.0.1 (an ephemeral port): it speaks the
// protocol (`connected`, auth with a key, `auth_success` / `auth_failed`, one connection per key
// and market with the older one evicted by `max_connections`, subscribe and unsubscribe
// acknowledgements), sends scripted events to the connections subscribed to them, records every
// subscription message, and can drop every connection, refuse new ones, go away and come back on
// the same port. FakeUpstreamRest answers the two REST calls of gap repair.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

export type Event = Record<string, unknown> & { ev: string };

interface Conn {
  ws: WebSocket;
  market: string;
  key?: string;
  topics: Set<string>;
}

/** Where an event keeps its symbol (as the feed's markets do). */
function symbolOf(e: Event): string {
  const s = e.sym ?? e.pair ?? e.p ?? e.T;
  return typeof s === 'string' ? s : '';
}

const MAX_CONNECTIONS = 'Maximum number of websocket connections exceeded. You have reached the connection limit for your account. Please contact support to increase your limit.';

export interface FakeUpstreamOptions {
  /** Keys that authenticate (default: `upstream-key`). */
  keys?: string[];
  port?: number;
}

export class FakeUpstreamFeed {
  readonly keys: Set<string>;
  private http!: Server;
  private wss!: WebSocketServer;
  private readonly conns = new Set<Conn>();
  port = 0;
  /** When set, an upgrade is answered with this HTTP status instead. */
  refuseWith: number | undefined;
  /** Every subscribe/unsubscribe message received, in order: `market action params`. */
  readonly log: string[] = [];
  /** Upgrade requests received, refused ones included. */
  upgrades = 0;
  /** Connections that authenticated, ever. */
  authenticated = 0;
  /** Auth messages received, with the key they carried. */
  readonly authKeys: string[] = [];

  private constructor(opts: FakeUpstreamOptions) {
    this.keys = new Set(opts.keys ?? ['upstream-key']);
  }

  static async start(opts: FakeUpstreamOptions = {}): Promise<FakeUpstreamFeed> {
    const feed = new FakeUpstreamFeed(opts);
    await feed.listen(opts.port ?? 0);
    return feed;
  }

  get base(): string {
    return `ws://127.0.0.1:${this.port}`;
  }

  private async listen(port: number): Promise<void> {
    this.http = createServer((_req, res) => res.writeHead(404).end());
    this.wss = new WebSocketServer({ noServer: true, perMessageDeflate: false });
    this.http.on('upgrade', (req, socket, head) => {
      this.upgrades++;
      if (this.refuseWith !== undefined) {
        socket.end(`HTTP/1.1 ${this.refuseWith} Refused\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
        return;
      }
      const market = (req.url ?? '/').replace(/^\/+/, '').split(/[/?]/)[0]!;
      this.wss.handleUpgrade(req, socket, head, (ws) => this.open(ws, market));
    });
    await new Promise<void>((res) => this.http.listen(port, '127.0.0.1', res));
    this.port = (this.http.address() as AddressInfo).port;
  }

  private open(ws: WebSocket, market: string): void {
    const conn: Conn = { ws, market, topics: new Set() };
    this.conns.add(conn);
    ws.on('close', () => this.conns.delete(conn));
    ws.on('error', () => {});
    ws.send(JSON.stringify([{ ev: 'status', status: 'connected', message: 'Connected Successfully' }]));
    ws.on('message', (data) => {
      const msg = JSON.parse(data.toString()) as { action: string; params: string };
      if (msg.action === 'auth') {
        this.authKeys.push(msg.params);
        if (!this.keys.has(msg.params)) {
          ws.send(JSON.stringify([{ ev: 'status', status: 'auth_failed', message: 'authentication failed' }]));
          ws.close(1008);
          return;
        }
        // one connection per key and market: the newest wins
        for (const other of this.conns) {
          if (other !== conn && other.key === msg.params && other.market === market) {
            other.ws.send(JSON.stringify([{ ev: 'status', status: 'max_connections', message: MAX_CONNECTIONS }]));
            other.ws.close(1008);
            other.key = undefined;
          }
        }
        conn.key = msg.params;
        this.authenticated++;
        ws.send(JSON.stringify([{ ev: 'status', status: 'auth_success', message: 'authenticated' }]));
        return;
      }
      if (!conn.key) {
        ws.send(JSON.stringify([{ ev: 'status', status: 'auth_required', message: 'authentication required' }]));
        return;
      }
      this.log.push(`${market} ${msg.action} ${msg.params}`);
      for (const t of msg.params.split(',').map((x) => x.trim()).filter(Boolean)) {
        if (msg.action === 'subscribe') conn.topics.add(t);
        else conn.topics.delete(t);
        const verb = msg.action === 'subscribe' ? 'subscribed to' : 'unsubscribed to';
        ws.send(JSON.stringify([{ ev: 'status', status: 'success', message: `${verb}: ${t}` }]));
      }
    });
  }

  /** Authenticated connections (of one market, when named). */
  connections(market?: string): number {
    return [...this.conns].filter((c) => c.key !== undefined && (market === undefined || c.market === market)).length;
  }

  /** Topics subscribed on the market's authenticated connections. */
  subscriptions(market: string): Set<string> {
    const out = new Set<string>();
    for (const c of this.conns) if (c.key !== undefined && c.market === market) for (const t of c.topics) out.add(t);
    return out;
  }

  /**
   * Sends `events` (one frame, or frames of `perFrame`) to every connection of the market subscribed to each event; returns how many connections got one.
   * `oneWrite`: a connection's frames leave in one socket write (corked), so the relay reads them all at once.
   */
  send(market: string, events: readonly Event[], perFrame = events.length, oneWrite = false): number {
    let reached = 0;
    for (const c of this.conns) {
      if (c.key === undefined || c.market !== market) continue;
      const mine = events.filter((e) => c.topics.has(`${e.ev}.*`) || c.topics.has(`${e.ev}.${symbolOf(e)}`));
      if (mine.length === 0) continue;
      reached++;
      const socket = (c.ws as unknown as { _socket: { cork(): void; uncork(): void } })._socket;
      if (oneWrite) socket.cork();
      for (let i = 0; i < mine.length; i += Math.max(1, perFrame)) c.ws.send(JSON.stringify(mine.slice(i, i + Math.max(1, perFrame))));
      if (oneWrite) socket.uncork();
    }
    return reached;
  }

  /** Cuts every connection (no close frame), as a network drop would. */
  drop(): void {
    for (const c of this.conns) c.ws.terminate();
    this.conns.clear();
  }

  /** Goes away: drops every connection and stops listening (connection attempts are refused). */
  async stop(): Promise<void> {
    this.drop();
    this.wss.close();
    this.http.closeAllConnections();
    await new Promise<void>((res) => this.http.close(() => res()));
  }

  /** Comes back on the same port. */
  async resume(): Promise<void> {
    await this.listen(this.port);
  }

  async close(): Promise<void> {
    await this.stop().catch(() => {});
  }
}

/** Waits until `pred` holds (polling every 20 ms), or fails naming `what`. */
export async function waitFor(pred: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await pred())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** JSON with bigint values written as plain digits (upstream's ns timestamps). */
function exactJson(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? `\u0000${x}\u0000` : x)).replace(/"\\u0000(-?\d+)\\u0000"/g, '$1');
}

export interface RestTrade {
  sip_timestamp: bigint;
  price: number;
  size: number;
  exchange: number;
  id: string;
  sequence_number: bigint;
  conditions?: number[];
}

export interface RestBar {
  t: number;
  o: number;
  h: number;
  l: number;
  c: number;
  v: number;
  vw: number;
  n: number;
}

/**
 * Upstream's REST API as gap repair uses it: /v3/trades/{ticker} (timestamp.gte/lt, pages of
 * `pageSize` linked by next_url) and /v2/aggs/ticker/{ticker}/range/1/minute/{from}/{to}; a
 * request without `Authorization: Bearer <key>` is 401. Every request is recorded.
 */
export class FakeUpstreamRest {
  readonly trades = new Map<string, RestTrade[]>();
  readonly bars = new Map<string, RestBar[]>();
  readonly requests: { url: string; authorization?: string }[] = [];
  private server!: Server;
  port = 0;

  constructor(
    readonly key = 'upstream-key',
    private readonly pageSize = 2,
  ) {}

  get base(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => this.handle(req, res));
    await new Promise<void>((res) => this.server.listen(0, '127.0.0.1', res));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    this.requests.push({ url: req.url ?? '', authorization: req.headers.authorization });
    if (req.headers.authorization !== `Bearer ${this.key}`) {
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"status":"ERROR","error":"Unknown API Key"}');
      return;
    }
    const url = new URL(req.url ?? '/', this.base);
    const send = (body: unknown) => res.writeHead(200, { 'content-type': 'application/json' }).end(exactJson(body));
    let m = /^\/v3\/trades\/([^/]+)$/.exec(url.pathname);
    if (m) {
      const ticker = decodeURIComponent(m[1]!);
      const gte = BigInt(url.searchParams.get('timestamp.gte') ?? '0');
      const lt = BigInt(url.searchParams.get('timestamp.lt') ?? String(2n ** 62n));
      const offset = Number(url.searchParams.get('cursor') ?? '0');
      const all = (this.trades.get(ticker) ?? []).filter((t) => t.sip_timestamp >= gte && t.sip_timestamp < lt);
      const page = all.slice(offset, offset + this.pageSize);
      const next = new URL(url);
      next.searchParams.set('cursor', String(offset + this.pageSize));
      send({ status: 'OK', request_id: 'r', results: page, ...(offset + this.pageSize < all.length ? { next_url: next.toString() } : {}) });
      return;
    }
    m = /^\/v2\/aggs\/ticker\/([^/]+)\/range\/1\/minute\/(\d+)\/(\d+)$/.exec(url.pathname);
    if (m) {
      const ticker = decodeURIComponent(m[1]!);
      const [from, to] = [Number(m[2]), Number(m[3])];
      const results = (this.bars.get(ticker) ?? []).filter((b) => b.t >= from && b.t <= to);
      send({ ticker, status: 'OK', request_id: 'r', adjusted: false, queryCount: results.length, resultsCount: results.length, results });
      return;
    }
    res.writeHead(404).end();
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((res) => this.server.close(() => res()));
  }
}
