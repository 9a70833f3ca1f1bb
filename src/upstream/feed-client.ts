// One connection to upstream's WebSocket feed for one market: connect, authenticate with the
// upstream key, keep the wanted topics subscribed, hand data frames over as received, and come
// back after a drop with capped exponential backoff and jitter (authenticating and subscribing
// everything wanted again). `auth_failed` and `max_connections` stop it for good: retrying a
// refused key only repeats the refusal, and retrying an eviction would evict the other holder of
// the key in turn. The key is sent only in the auth message, never logged.
import { WebSocket } from 'ws';

export type FeedStopReason = 'auth_failed' | 'max_connections';

export type FeedClientState =
  | { kind: 'connecting'; attempt: number }
  | { kind: 'live'; since: number }
  /** Dropped or refused; the next attempt is `retryInMs` away. */
  | { kind: 'lost'; since: number; reason: string; retryInMs: number }
  /** Given up for a reason retrying cannot mend. */
  | { kind: 'stopped'; reason: FeedStopReason; message: string; since: number }
  | { kind: 'closed' };

export interface FeedClientOptions {
  /** The feed's base, e.g. `wss://socket.massive.com`; the market's path is appended. */
  base: string;
  market: string;
  key: string;
  /** A data frame as received (a JSON array; status objects other than the client's own may be among the events). */
  onFrame(text: string): void;
  onState(state: FeedClientState, previous: FeedClientState): void;
  /** A status upstream sent that the client does not act on (an `error` for a topic, …). */
  onNotice?(status: string, message: string): void;
  /** First retry delay, ms (default 500); doubled each failed attempt up to `maxDelayMs`. */
  initialDelayMs?: number;
  /** Longest retry delay, ms (default 30 s). */
  maxDelayMs?: number;
  /** Deadline of the upgrade and of the `connected` → `auth_success` exchange, ms (default 10 s). */
  connectTimeoutMs?: number;
  /** A WebSocket ping this often, ms (default 20 s); no pong before the next one drops the connection. */
  pingIntervalMs?: number;
  /** How long a connection must stay live before the backoff starts over, ms (default 10 s). */
  stableAfterMs?: number;
  now?: () => number;
  random?: () => number;
}

/** Topics per subscribe message: upstream reads long lists, but a frame of a few KB is plenty. */
const TOPICS_PER_MESSAGE = 500;

/** The retry delay before attempt `attempt` (1-based): exponential, capped, with "equal jitter" (half fixed, half random). */
export function backoffDelay(attempt: number, initialMs: number, maxMs: number, random: () => number): number {
  const ceiling = Math.min(maxMs, initialMs * 2 ** Math.min(attempt - 1, 30));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

export class UpstreamFeedClient {
  private ws: WebSocket | undefined;
  private stateValue: FeedClientState = { kind: 'connecting', attempt: 0 };
  private readonly wanted = new Set<string>();
  /** Topics subscribed on the current connection. */
  private readonly sent = new Set<string>();
  private attempt = 0;
  private retryTimer: NodeJS.Timeout | undefined;
  private deadline: NodeJS.Timeout | undefined;
  private pinger: NodeJS.Timeout | undefined;
  private stableTimer: NodeJS.Timeout | undefined;
  private awaitingPong = false;
  /** When the current outage began (the first drop or refused attempt since the connection was last live). */
  private outageSince: number | undefined;
  private readonly now: () => number;
  private readonly random: () => number;

  constructor(private readonly opts: FeedClientOptions) {
    this.now = opts.now ?? Date.now;
    this.random = opts.random ?? Math.random;
  }

  get state(): FeedClientState {
    return this.stateValue;
  }

  get url(): string {
    return `${this.opts.base.replace(/\/+$/, '')}/${this.opts.market}`;
  }

  /** Topics subscribed on the live connection. */
  subscribed(): ReadonlySet<string> {
    return this.sent;
  }

  start(): void {
    if (this.stateValue.kind === 'closed') return;
    this.connect();
  }

  /** Replaces the wanted topics; on a live connection the difference is subscribed and unsubscribed at once. */
  want(topics: Iterable<string>): void {
    this.wanted.clear();
    for (const t of topics) this.wanted.add(t);
    if (this.stateValue.kind === 'live') this.sync();
  }

  close(): void {
    this.setState({ kind: 'closed' });
    this.clearTimers();
    const ws = this.ws;
    this.ws = undefined;
    if (ws) {
      ws.removeAllListeners();
      ws.on('error', () => {});
      ws.terminate();
    }
  }

  private setState(next: FeedClientState): void {
    const previous = this.stateValue;
    if (previous.kind === 'closed') return;
    this.stateValue = next;
    this.opts.onState(next, previous);
  }

  private clearTimers(): void {
    clearTimeout(this.retryTimer);
    clearTimeout(this.deadline);
    clearInterval(this.pinger);
    clearTimeout(this.stableTimer);
    this.retryTimer = this.deadline = this.pinger = this.stableTimer = undefined;
  }

  private connect(): void {
    this.clearTimers();
    this.attempt++;
    this.sent.clear();
    this.setState({ kind: 'connecting', attempt: this.attempt });
    const ws = new WebSocket(this.url, { perMessageDeflate: false, handshakeTimeout: this.opts.connectTimeoutMs ?? 10_000, maxPayload: 16 * 1024 * 1024 });
    this.ws = ws;
    this.deadline = setTimeout(() => this.drop(ws, 'upstream did not authenticate the connection in time'), this.opts.connectTimeoutMs ?? 10_000);
    ws.on('message', (data) => {
      if (ws !== this.ws) return;
      // a Buffer is decoded as it is (Buffer.from would copy it first)
      const text = Array.isArray(data) ? Buffer.concat(data).toString('utf8') : Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.from(data).toString('utf8');
      this.onMessage(ws, text);
    });
    ws.on('pong', () => {
      this.awaitingPong = false;
    });
    ws.on('error', (err) => this.drop(ws, err.message || 'connection error'));
    ws.on('close', (code) => this.drop(ws, `closed by upstream (code ${code})`));
  }

  private onMessage(ws: WebSocket, text: string): void {
    // Status objects are few and small; data frames are passed on without parsing them here.
    if (!text.includes('"status"')) {
      if (this.stateValue.kind === 'live') this.opts.onFrame(text);
      return;
    }
    let items: unknown;
    try {
      items = JSON.parse(text);
    } catch {
      return;
    }
    if (!Array.isArray(items)) return;
    let data = false;
    for (const item of items as { ev?: unknown; status?: unknown; message?: unknown }[]) {
      if (item?.ev !== 'status') {
        data = true;
        continue;
      }
      const status = String(item.status);
      const message = typeof item.message === 'string' ? item.message : '';
      switch (status) {
        case 'connected':
          ws.send(JSON.stringify({ action: 'auth', params: this.opts.key }));
          break;
        case 'auth_success':
          this.onLive();
          break;
        case 'auth_failed':
        case 'max_connections':
          this.stop(status, message);
          return;
        default:
          this.opts.onNotice?.(status, message);
      }
    }
    if (data && this.stateValue.kind === 'live') this.opts.onFrame(text);
  }

  private onLive(): void {
    clearTimeout(this.deadline);
    this.deadline = undefined;
    this.outageSince = undefined;
    this.setState({ kind: 'live', since: this.now() });
    this.sync();
    this.awaitingPong = false;
    const ws = this.ws!;
    this.pinger = setInterval(() => {
      if (this.awaitingPong) return this.drop(ws, 'upstream did not answer a ping');
      this.awaitingPong = true;
      ws.ping();
    }, this.opts.pingIntervalMs ?? 20_000);
    this.pinger.unref();
    this.stableTimer = setTimeout(() => {
      this.attempt = 0;
    }, this.opts.stableAfterMs ?? 10_000);
    this.stableTimer.unref();
  }

  private sync(): void {
    const ws = this.ws;
    if (!ws || ws.readyState !== ws.OPEN) return;
    const add = [...this.wanted].filter((t) => !this.sent.has(t));
    const remove = [...this.sent].filter((t) => !this.wanted.has(t));
    for (const [action, topics] of [['subscribe', add], ['unsubscribe', remove]] as const) {
      for (let i = 0; i < topics.length; i += TOPICS_PER_MESSAGE) {
        ws.send(JSON.stringify({ action, params: topics.slice(i, i + TOPICS_PER_MESSAGE).join(',') }));
      }
    }
    for (const t of add) this.sent.add(t);
    for (const t of remove) this.sent.delete(t);
  }

  private stop(reason: FeedStopReason, message: string): void {
    const ws = this.ws;
    this.ws = undefined;
    this.clearTimers();
    this.sent.clear();
    if (ws) {
      ws.removeAllListeners();
      ws.on('error', () => {});
      ws.close();
    }
    this.setState({ kind: 'stopped', reason, message, since: this.now() });
  }

  /** The connection is gone (or never came up): schedule the next attempt. */
  private drop(ws: WebSocket, reason: string): void {
    if (ws !== this.ws) return;
    this.ws = undefined;
    this.clearTimers();
    this.sent.clear();
    ws.removeAllListeners();
    ws.on('error', () => {});
    ws.terminate();
    if (this.stateValue.kind === 'closed' || this.stateValue.kind === 'stopped') return;
    const retryInMs = backoffDelay(this.attempt, this.opts.initialDelayMs ?? 500, this.opts.maxDelayMs ?? 30_000, this.random);
    this.outageSince ??= this.now();
    this.setState({ kind: 'lost', since: this.outageSince, reason, retryInMs });
    this.retryTimer = setTimeout(() => this.connect(), retryInMs);
  }
}
