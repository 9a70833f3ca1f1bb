// One WebSocket connection of the feed: the lifecycle (connected → auth → subscriptions), the
// control replies, and the outgoing queue. Messages of a connection are handled strictly one
// after another in arrival order, so a subscribe pipelined behind auth sees the auth's result.
// Data is batched into frames under the frame cap; the bytes a connection may hold unsent are
// bounded, and a consumer that falls behind that bound gets `slow_consumer` and is closed.
import type { WebSocket } from 'ws';
import type { Chunk } from './chunk.js';
import { cutFrames, FrameCache } from './frames.js';
import { sendFramed, sendFramedRun } from './ws-frame.js';
import type { FeedPath } from './markets.js';
import { streamDisconnects } from './metrics.js';
import { CLOSE_POLICY, MESSAGES, status, statusFrame, type StatusEvent, type StatusName } from './status.js';
import { parseTopics, type Topic } from './topics.js';

export interface SessionLimits {
  /** Longest frame sent, bytes (clients drop a connection over 1,000,000). */
  maxFrameBytes: number;
  /** Bytes a connection may hold unsent (socket buffer plus queue) before it is a slow consumer. */
  maxBufferedBytes: number;
  /**
   * A connection holding more than this unsent (default 4 MiB) for `slowConsumerMs` on end is a
   * slow consumer too: a paused client on a quiet feed never reaches maxBufferedBytes, and its
   * backlog would be held for as long as it stays connected.
   */
  softBufferedBytes?: number;
  /** How long a backlog may stay above softBufferedBytes, ms (default 30 s). */
  slowConsumerMs?: number;
  authTimeoutMs: number;
  /** After a closing status, how long the peer has to read it before the socket is cut. */
  closeGraceMs: number;
  pingIntervalMs: number;
}

export interface Identity {
  keyId: string;
  planName: string;
  /** Simultaneous connections the key may hold per feed and market. */
  connectionLimit: number;
  /** Channels the plan may not subscribe to, with the reason (checked per topic). */
  refuse(topic: Topic): string | undefined;
}

export type AuthOutcome = { ok: true; identity: Identity } | { ok: false; message: string };

export interface SessionHooks {
  authenticate(key: string, session: Session): Promise<AuthOutcome>;
  /** After auth_success: connection limits (may evict older connections). */
  admitted(session: Session): void | Promise<void>;
  subscribe(session: Session, topic: Topic): void;
  unsubscribe(session: Session, text: string): void;
  /** Opt-in catch-up: `since` (ms) came with a subscribe; the topics just subscribed. */
  catchUp?(session: Session, topics: readonly Topic[], sinceMs: number): void;
  closed(session: Session): void;
}

let nextId = 0;

const DEFAULT_SOFT_BYTES = 4 * 1024 * 1024;
const DEFAULT_SLOW_MS = 30_000;

const MAX_OPTION_QUOTE_TOPICS = 1000;

/** Connections with data queued this turn, flushed together by one callback (see Session.flushQueued). */
let queued: Session[] = [];
let flushScheduled = false;

export class Session {
  readonly id: string;
  identity: Identity | undefined;
  private queue: Promise<void> = Promise.resolve();
  private readonly optionQuotes = new Set<string>();
  private authRequested = false;
  private pending: Chunk[] = [];
  private pendingBytes = 0;
  private socketBacklog = 0;
  private isQueued = false;
  private ending = false;
  private missedPongs = 0;
  private readonly timers: NodeJS.Timeout[] = [];
  /** Samples the backlog while it is above the soft limit; when it went above. */
  private softWatch: NodeJS.Timeout | undefined;
  private aboveSoftSince = 0;
  /** Largest unsent byte count held (socket backlog plus queue): shows the bound holds. */
  peakBufferedBytes = 0;

  constructor(
    readonly ws: WebSocket,
    readonly feed: FeedPath,
    private readonly limits: SessionLimits,
    private readonly hooks: SessionHooks,
    idPrefix = '',
  ) {
    this.id = `${idPrefix}${++nextId}`;
    ws.on('message', (data, isBinary) => {
      const text = Array.isArray(data) ? Buffer.concat(data).toString('utf8') : Buffer.from(data as ArrayBuffer).toString('utf8');
      void isBinary; // binary frames are read as UTF-8 text
      this.queue = this.queue.then(() => this.handle(text)).catch(() => this.terminate());
    });
    ws.on('pong', () => {
      this.missedPongs = 0;
    });
    ws.on('close', () => this.cleanup());
    ws.on('error', () => this.terminate());
    this.sendStatus(status('connected', MESSAGES.connected));
    this.timers.push(
      setTimeout(() => {
        if (!this.authRequested) this.end('auth_timeout', MESSAGES.authTimeout);
      }, limits.authTimeoutMs),
    );
    const ping = setInterval(() => {
      if (this.missedPongs >= 2) return this.terminate();
      this.missedPongs++;
      try {
        ws.ping();
      } catch {
        this.terminate();
      }
    }, limits.pingIntervalMs);
    ping.unref();
    this.timers.push(ping);
  }

  get authenticated(): boolean {
    return this.identity !== undefined;
  }

  private async handle(text: string): Promise<void> {
    if (this.ending) return;
    let msg: unknown;
    try {
      msg = JSON.parse(text);
    } catch {
      msg = undefined;
    }
    if (msg === null || typeof msg !== 'object' || Array.isArray(msg)) return this.sendStatus(status('error', MESSAGES.invalidJson));
    const { action, params, since } = msg as { action?: unknown; params?: unknown; since?: unknown };
    if (action !== 'auth' && action !== 'subscribe' && action !== 'unsubscribe') {
      const shown = typeof action === 'string' ? action : action === undefined ? '(missing)' : JSON.stringify(action);
      return this.sendStatus(status('error', `unknown action: ${shown.slice(0, 100)}`));
    }
    if (action === 'auth') this.authRequested = true;
    if (typeof params !== 'string') return this.sendStatus(status('error', MESSAGES.paramsNotString));
    if (action === 'auth') return this.auth(params);
    if (!this.identity) return this.sendStatus(status('auth_required', MESSAGES.authRequired));
    // Tickerbase's own extension: a subscribe may carry `since` to catch up first (see history.ts)
    if (since !== undefined && (action !== 'subscribe' || typeof since !== 'number' || !Number.isSafeInteger(since) || since < 0)) {
      return this.sendStatus(status('error', 'since must be a timestamp in Unix milliseconds, on subscribe'));
    }
    const subscribed: Topic[] = [];
    const acks: StatusEvent[] = [];
    for (const item of parseTopics(params, this.feed.market)) {
      if (!item.ok) {
        acks.push(status('error', `invalid subscription: ${item.text.slice(0, 200)}`));
      } else if (action === 'subscribe') {
        const refused = this.identity.refuse(item.topic) ?? this.contractLimit(item.topic);
        if (refused) {
          acks.push(status('error', refused));
          continue;
        }
        this.hooks.subscribe(this, item.topic);
        subscribed.push(item.topic);
        if (this.feed.market === 'options' && item.topic.ev === 'Q') this.optionQuotes.add(item.topic.text);
        acks.push(status('success', `subscribed to: ${item.topic.text}`));
      } else {
        this.hooks.unsubscribe(this, item.topic.text);
        this.optionQuotes.delete(item.topic.text);
        acks.push(status('success', `unsubscribed to: ${item.topic.text}`));
      }
    }
    // One frame per acknowledgement, as the official Python test server sends them.
    for (const a of acks) this.sendStatus(a);
    // in the turn that subscribed: the missed events come before any live one, none twice
    if (typeof since === 'number' && subscribed.length > 0) this.hooks.catchUp?.(this, subscribed, since);
  }

  /** Options quotes are sold per contract: no wildcard, at most 1,000 contracts per connection. */
  private contractLimit(topic: Topic): string | undefined {
    if (this.feed.market !== 'options' || topic.ev !== 'Q') return undefined;
    if (topic.symbol === '*') return `options quotes cannot be subscribed with a wildcard: ${topic.text}`;
    if (this.optionQuotes.size >= MAX_OPTION_QUOTE_TOPICS && !this.optionQuotes.has(topic.text)) {
      return `at most ${MAX_OPTION_QUOTE_TOPICS} options quote subscriptions per connection: ${topic.text}`;
    }
    return undefined;
  }

  private async auth(key: string): Promise<void> {
    if (this.identity) return this.sendStatus(status('auth_success', MESSAGES.authSuccess));
    const outcome = await this.hooks.authenticate(key, this);
    if (this.ending) return;
    if (!outcome.ok) return this.end('auth_failed', outcome.message);
    this.identity = outcome.identity;
    this.sendStatus(status('auth_success', MESSAGES.authSuccess));
    await this.hooks.admitted(this);
  }

  private sendStatus(s: StatusEvent): void {
    if (this.ws.readyState !== this.ws.OPEN) return;
    this.flush(); // data queued before a status goes out before it
    this.ws.send(statusFrame(s));
  }

  /** A status frame outside the request/reply flow (e.g. a replay reaching its end). */
  notice(name: StatusName, message: string): void {
    if (!this.ending) this.sendStatus(status(name, message));
  }

  /** Queues events; frames are cut when the event loop turns. */
  deliver(chunk: Chunk): void {
    if (this.ending || this.ws.readyState !== this.ws.OPEN) return;
    // The socket's backlog is read once per event-loop turn: it cannot shrink while this turn runs.
    if (this.pending.length === 0) this.socketBacklog = this.ws.bufferedAmount;
    const unsent = this.socketBacklog + this.pendingBytes + chunk.bytes + 1;
    if (unsent > this.limits.maxBufferedBytes) {
      this.pending = [];
      this.pendingBytes = 0;
      this.end('slow_consumer', MESSAGES.slowConsumer);
      return;
    }
    this.pending.push(chunk);
    this.pendingBytes += chunk.bytes + 1;
    if (unsent > this.peakBufferedBytes) this.peakBufferedBytes = unsent;
    if (unsent > this.softBytes && this.softWatch === undefined) this.watchBacklog();
    if (!this.isQueued) {
      this.isQueued = true;
      queued.push(this);
      if (!flushScheduled) {
        flushScheduled = true;
        setImmediate(Session.flushQueued);
      }
    }
  }

  private get softBytes(): number {
    return this.limits.softBufferedBytes ?? DEFAULT_SOFT_BYTES;
  }

  /**
   * Samples the unsent bytes (a tenth of slowConsumerMs apart, at most a second) from the moment
   * they passed the soft limit: once they have stayed above it for slowConsumerMs, the client
   * is told `slow_consumer` and closed; once they fall below it, the watch stops.
   */
  private watchBacklog(): void {
    const slowMs = this.limits.slowConsumerMs ?? DEFAULT_SLOW_MS;
    this.aboveSoftSince = Date.now();
    this.softWatch = setInterval(() => {
      if (this.ending) return this.stopWatch();
      if (this.ws.bufferedAmount + this.pendingBytes <= this.softBytes) return this.stopWatch();
      if (Date.now() - this.aboveSoftSince >= slowMs) {
        this.stopWatch();
        this.pending = [];
        this.pendingBytes = 0;
        this.end('slow_consumer', MESSAGES.slowConsumer);
      }
    }, Math.min(1000, Math.max(10, slowMs / 10)));
    this.softWatch.unref();
  }

  private stopWatch(): void {
    clearInterval(this.softWatch);
    this.softWatch = undefined;
  }

  /**
   * Sends what every connection queued this turn. One callback for all of them, and one frame
   * cache: connections that queued the same chunks (all subscribers of T.* after several
   * publishes in one turn) send the same frame Buffers, built once.
   */
  private static flushQueued(): void {
    const sessions = queued;
    queued = [];
    flushScheduled = false;
    const cache = new FrameCache();
    for (const s of sessions) {
      s.isQueued = false;
      s.flush(cache);
    }
  }

  private flush(cache?: FrameCache): void {
    if (this.pending.length === 0) return;
    const chunks = this.pending;
    this.pending = [];
    this.pendingBytes = 0;
    if (this.ws.readyState !== this.ws.OPEN) return;
    const max = this.limits.maxFrameBytes;
    if (!cache) for (const frame of cutFrames(chunks, max)) this.ws.send(frame, { binary: false });
    else {
      const frames = cache.of(chunks, max);
      if (frames.length === 1) sendFramed(this.ws, cache.wire(frames[0]!), frames[0]!);
      else sendFramedRun(this.ws, cache.wireRun(frames), frames);
    }
  }

  /** Sends a closing status, then closes with 1008 (the client should not just retry). */
  end(name: StatusName, message: string, code = CLOSE_POLICY): void {
    if (this.ending) return;
    this.ending = true;
    streamDisconnects.inc({ reason: name });
    if (this.ws.readyState === this.ws.OPEN) {
      this.ws.send(statusFrame(status(name, message)));
      this.ws.close(code);
    }
    const grace = setTimeout(() => this.terminate(), this.limits.closeGraceMs);
    grace.unref();
    this.timers.push(grace);
    this.hooks.closed(this);
  }

  terminate(): void {
    this.ending = true;
    this.ws.terminate();
    this.cleanup();
  }

  private cleanup(): void {
    this.stopWatch();
    for (const t of this.timers) clearTimeout(t);
    this.timers.length = 0;
    this.pending = [];
    this.pendingBytes = 0;
    this.hooks.closed(this);
  }
}
