// attachStreaming: the WebSocket feed on the REST server's port. Upgrades on /<market> and
// /delayed/<market> become sessions; any other path is refused with 404. Events come from the
// broker (in memory, or Redis across processes) and are routed by the hub.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { WebSocketServer, type WebSocket } from 'ws';
import type { KeyAuthenticator } from '../server/auth.js';
import { PlanCatalog } from '../server/plans.js';
import { readyChecksOf, type ReadyReport } from '../server/ready-checks.js';
import { authenticateFeedKey } from './auth.js';
import { MemoryBroker, type Broker } from './broker.js';
import { StreamHub } from './hub.js';
import { Chunk } from './chunk.js';
import { FeedHistory } from './history.js';
import { MemoryConnectionLimiter, type ConnectionLimiter } from './limits.js';
import { Admissions } from './admissions.js';
import { BusBroker } from './bus-broker.js';
import { RedisBus, redisChannels } from './redis-broker.js';
import { storedMinutePrints } from './stored-minutes.js';
import { RedisWindowClaims, type WindowClaims } from './window-claims.js';
import { RedisConnectionLimiter } from './redis-limits.js';
import type { WireEvent } from './json.js';
import { streamPublished, watchHub } from './metrics.js';
import { parseFeedPath, type FeedMarket, type FeedPath } from './markets.js';
import { toBrokerEvent } from './publisher.js';
import { LiveAggregator } from './aggregator.js';
import { LivePublisher } from './publish.js';
import { publishRoute } from './publish-route.js';
import { ReplayManager } from './replay.js';
import { replayRoutes } from './replay-routes.js';
import { storeLiveFuturesBars, storeLiveMinuteBars } from '../services/live-ticks.js';
import type { Store } from '../store/index.js';
import { Session, type SessionHooks, type SessionLimits } from './session.js';
import { CLOSE_RESTART, MESSAGES } from './status.js';

export interface StreamingOptions {
  auth: KeyAuthenticator;
  /** Plans (default: the app's catalogue, else the built-ins). */
  plans?: PlanCatalog;
  broker?: Broker;
  /** Several processes share `broker`: who emits each window's bars (with Redis: claims in Redis). */
  claims?: WindowClaims;
  limiter?: ConnectionLimiter;
  /**
   * Shared Redis: events and connection limits across processes (default: this process only).
   * The caller closes it; the feed closes the subscriber connection it makes.
   */
  redis?: Redis;
  /** Prefix of the Redis keys and channels (default `tickerbase:`). */
  redisPrefix?: string;
  /** How long the start waits for Redis before serving alone meanwhile, ms (default 2 s). */
  redisWaitMs?: number;
  /** Connections per key, feed and market when the plan sets none (default 1). */
  connectionLimit?: number;
  /** Hold-back of /delayed/<market>, ms (default 15 minutes). */
  delayMs?: number;
  /** Hold-back of /delayed/futures, ms (default 10 minutes, as upstream's). */
  futuresDelayMs?: number;
  maxDelayedEvents?: number;
  limits?: Partial<SessionLimits>;
  now?: () => number;
  /** Where published trades, quotes and live minute bars are stored (absent: nothing is stored). */
  store?: Store;
  /** Enables POST /admin/publish with this admin token. */
  adminToken?: string;
  /** Live bars: wait after a window's end before emitting (default 1 s); correction window of minutes (default 5 min). */
  aggregation?: { graceMs?: number; retainMs?: number };
  /** Catch-up history of the real-time feed: kept for `maxAgeMs` (default 60 s; 0 = off), at most `maxEvents` (default 100,000). */
  history?: { maxAgeMs?: number; maxEvents?: number };
  /** How often connected keys are checked for revocation and expiry, ms (default 60 s; needs `store`). */
  keyCheckMs?: number;
  /** Answers' envelope of /admin/publish (default: the app's). */
  envelope?: 'wrapped' | 'native';
  log?: (msg: string, err?: unknown) => void;
}

export const DEFAULT_LIMITS: SessionLimits = {
  maxFrameBytes: 256 * 1024,
  maxBufferedBytes: 64 * 1024 * 1024,
  authTimeoutMs: 10_000,
  closeGraceMs: 5_000,
  pingIntervalMs: 30_000,
};

export interface Streaming {
  hub: StreamHub;
  broker: Broker;
  /** Open feed connections of this process. */
  connections(): number;
  /** Sends events in the feed's wire shape to subscribers on every process (through the broker); nothing is stored. */
  publish(events: readonly WireEvent[], market?: FeedMarket): Promise<void>;
  /** Stores, sends and aggregates checked events (what POST /admin/publish does). */
  publisher: LivePublisher;
  aggregator: LiveAggregator;
  close(): Promise<void>;
}

/**
 * The first time the bus is up, the history takes the recent batches the bus keeps (Redis: a
 * stream). A read that fails (a start that keeps the event loop busy past the command deadline)
 * is tried again a few times, a second apart.
 */
function seedHistoryOnJoin(broker: BusBroker, history: FeedHistory, now: () => number, maxAgeMs: number, log: (msg: string, err?: unknown) => void): void {
  if (maxAgeMs <= 0) return;
  let seeded = false;
  const seed = (attempt: number) => {
    broker.recent(now() - maxAgeMs).then(
      (batches) => history.seed(batches),
      (err: unknown) => {
        if (attempt < 3) setTimeout(() => seed(attempt + 1), 1000).unref();
        else log('the catch-up history could not be read from the bus', err);
      },
    );
  };
  const first = () => {
    if (seeded) return;
    seeded = true;
    seed(1);
  };
  if (broker.status().shared) first();
  else broker.onUp(first);
}

/**
 * The feed's part of /ready: with several processes, whether events published here reach every
 * process's subscribers now (degraded while the bus is down or still sending what queued);
 * nothing for a lone process.
 */
function feedReadiness(broker: Broker): ReadyReport | undefined {
  const bus = broker.status();
  if (bus === undefined) return undefined;
  if (bus.shared) return { state: 'ok', detail: 'ok', label: 'shared' };
  return { state: 'degraded', detail: `the live feed is not shared: ${bus.reason ?? 'the other processes cannot be reached'}`, label: 'this process only' };
}

function refuse(socket: Duplex, status: string): void {
  socket.end(`HTTP/1.1 ${status}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
}

export async function attachStreaming(app: FastifyInstance, opts: StreamingOptions): Promise<Streaming> {
  const plans = opts.plans ?? app.plans ?? PlanCatalog.builtin();
  let broker = opts.broker;
  let limiter = opts.limiter;
  let claims: WindowClaims | undefined = opts.claims;
  // names this process to the others: pids alone repeat across hosts (every container's first is 1)
  const origin = `${process.pid}-${randomBytes(4).toString('hex')}`;
  if (opts.redis && (!broker || !limiter)) {
    const prefix = opts.redisPrefix ?? 'tickerbase:';
    const channels = redisChannels(prefix);
    const redisBus = new RedisBus(opts.redis, channels);
    broker ??= new BusBroker(redisBus, { origin, log: (msg) => app.log.warn(msg) });
    claims ??= new RedisWindowClaims(opts.redis, prefix, origin);
    limiter ??= new RedisConnectionLimiter(opts.redis, redisBus.sub, channels, prefix);
    // a Redis that answers commands is waited for (briefly) so nothing published right after the start is missed
    if (!(opts.redis.status === 'ready' && (await redisBus.ready(opts.redisWaitMs ?? 2000)))) {
      // the bus keeps reconnecting: this process joins the shared feed as soon as Redis answers
      app.log.warn('the feed starts without Redis: events published here reach only this process until Redis answers');
    }
  }
  broker ??= new MemoryBroker();
  const bus = broker;
  readyChecksOf(app).set('feed', () => feedReadiness(bus));
  limiter ??= new MemoryConnectionLimiter();
  const limits: SessionLimits = { ...DEFAULT_LIMITS, ...opts.limits };
  const now = opts.now ?? Date.now;
  const connectionLimit = opts.connectionLimit ?? 1;
  const hub = new StreamHub(broker, { delayMs: opts.delayMs ?? 15 * 60_000, marketDelayMs: { futures: opts.futuresDelayMs ?? 10 * 60_000 }, maxDelayedEvents: opts.maxDelayedEvents ?? 2_000_000, now });
  const wss = new WebSocketServer({ noServer: true, maxPayload: 1024 * 1024, perMessageDeflate: false });
  const unwatch = watchHub(hub);
  const history = new FeedHistory({ maxAgeMs: opts.history?.maxAgeMs ?? 60_000, maxEvents: opts.history?.maxEvents ?? 100_000, now });
  broker.onEvents((events) => history.append(events));
  const log = opts.log ?? ((msg: string, err?: unknown) => app.log.warn({ err }, msg));
  if (broker instanceof BusBroker) seedHistoryOnJoin(broker, history, now, opts.history?.maxAgeMs ?? 60_000, log);
  const lim = limiter;
  const admissions = new Admissions(limiter, (id) => hub.sessions.get(id)?.end('max_connections', MESSAGES.maxConnections), log);

  const replays = opts.store ? new ReplayManager(opts.store, now) : undefined;
  const replayOf = (session: Session) => (session.feed.replayId ? replays?.get(session.feed.replayId) : undefined);
  const registryOf = (session: Session) =>
    session.feed.feed === 'replay' ? replayOf(session)?.registry(session.feed.market) : hub.registry(session.feed.feed, session.feed.market);

  const hooks: SessionHooks = {
    async authenticate(key, session) {
      const outcome = await authenticateFeedKey(key, session.feed, { auth: opts.auth, plans, connectionLimit });
      if (outcome.ok && session.feed.feed === 'replay' && replayOf(session)?.spec.keyId !== outcome.identity.keyId) {
        return { ok: false, message: `No replay ${session.feed.replayId} for this key (a replay belongs to the key that created it).` };
      }
      return outcome;
    },
    async admitted(session) {
      const replay = replayOf(session);
      if (replay) {
        replay.sessions.add(session);
        return;
      }
      const id = session.identity!;
      await admissions.admit(session.id, `${id.keyId}|${session.feed.feed}|${session.feed.market}`, id.connectionLimit);
    },
    subscribe(session, topic) {
      registryOf(session)?.add(session, topic);
      replayOf(session)?.subscribed();
    },
    unsubscribe: (session, text) => registryOf(session)?.remove(session, text),
    catchUp(session, topics, sinceMs) {
      if (session.feed.feed !== 'realtime') return session.notice('error', 'catch-up (since) is offered on the real-time feed only');
      const missed = history.since(session.feed.market, topics, sinceMs);
      if (missed.events.length > 0) session.deliver(new Chunk(missed.events, missed.events.map((j) => Buffer.byteLength(j))));
      const what = `${missed.events.length} events since ${sinceMs}`;
      session.notice('success', missed.complete ? `caught up: ${what}` : `partly caught up: ${what}; older events are no longer kept`);
    },
    closed(session) {
      if (!hub.sessions.delete(session.id)) return;
      registryOf(session)?.removeAll(session);
      replayOf(session)?.sessions.delete(session);
      admissions.release(session.id);
    },
  };

  const open = (ws: WebSocket, feed: FeedPath) => {
    const session = new Session(ws, feed, limits, hooks, `${origin}-`);
    hub.sessions.set(session.id, session);
  };

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const feed = parseFeedPath(req.url ?? '/');
    if (!feed) return refuse(socket, '404 Not Found');
    socket.on('error', () => socket.destroy());
    wss.handleUpgrade(req, socket, head, (ws) => open(ws, feed));
  };
  app.server.on('upgrade', onUpgrade);

  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    app.server.off('upgrade', onUpgrade);
    const sessions = [...hub.sessions.values()];
    // A planned stop: 1012 tells clients to reconnect (to this server once it is back, or another).
    for (const s of sessions) s.end('force_disconnect', 'The server is restarting; reconnect.', CLOSE_RESTART);
    const deadline = Date.now() + Math.min(limits.closeGraceMs, 2_000);
    while (sessions.some((s) => s.ws.readyState !== s.ws.CLOSED) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    for (const s of sessions) s.terminate();
    hub.close();
    unwatch();
    wss.close();
    await broker.close();
    admissions.close();
    await lim.close();
  };
  app.addHook('preClose', async () => close());

  const publish = async (events: readonly WireEvent[], market?: FeedMarket) => {
    streamPublished.inc(events.length);
    await broker.publish(events.map((e) => toBrokerEvent(e, market)), { durable: true });
  };
  const store = opts.store;
  const aggregator = new LiveAggregator({
    now,
    graceMs: opts.aggregation?.graceMs ?? 1000,
    retainMs: opts.aggregation?.retainMs ?? 5 * 60_000,
    emit: (events, market) => {
      streamPublished.inc(events.length);
      // bars are not kept for a bus that is down: each process makes its own meanwhile
      broker.publish(events.map((e) => toBrokerEvent(e, market))).catch((err: unknown) => log('live bars could not be published', err));
    },
    storeMinuteBars: async (bars) => {
      if (store) await storeLiveMinuteBars(store, bars);
    },
    storeFuturesMinuteBars: async (bars) => {
      if (store) await storeLiveFuturesBars(store, bars);
    },
    onError: (err) => log('live minute bars could not be stored', err),
    shared: claims && {
      claims,
      storedPrints: store && ((futures: boolean, ticker: string, startMs: number) => storedMinutePrints(store, futures, ticker, startMs)),
    },
  });
  if (claims) broker.onRemotePrints((prints) => aggregator.addRemote(prints));
  const publisher = new LivePublisher(broker, store, aggregator);
  const wrapped = (opts.envelope ?? (app as FastifyInstance & { ctx?: { config: { envelope: string } } }).ctx?.config.envelope) === 'wrapped';
  if (opts.adminToken) await publishRoute(app, opts.adminToken, publisher, wrapped);
  // Revoked or expired keys lose their connections within keyCheckMs.
  const checkKeys = async () => {
    const byKey = new Map<string, Session[]>();
    for (const s of hub.sessions.values()) {
      const id = s.identity?.keyId;
      if (id) byKey.set(id, [...(byKey.get(id) ?? []), s]);
    }
    for (const [id, sessions] of byKey) {
      const record = await store!.keys.get(id).catch(() => undefined);
      if (!record || (!record.revoked_utc && !(record.expires_utc && Date.parse(record.expires_utc) <= now()))) continue;
      for (const s of sessions) s.end('force_disconnect', 'The API key has been revoked or has expired.');
    }
  };
  const keyCheck = store ? setInterval(() => void checkKeys(), opts.keyCheckMs ?? 60_000) : undefined;
  keyCheck?.unref();
  if (replays) {
    await replayRoutes(app, { auth: opts.auth, plans, replays, now, wrapped });
  }
  app.addHook('onClose', async () => {
    if (keyCheck) clearInterval(keyCheck);
    replays?.close();
    await aggregator.close();
  });
  return { hub, broker, connections: () => hub.sessions.size, publish, publisher, aggregator, close };
}
