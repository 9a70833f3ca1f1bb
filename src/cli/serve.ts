import cluster, { type Worker } from 'node:cluster';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command, InvalidArgumentError, Option } from 'commander';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { RateLimiterClusterMaster } from 'rate-limiter-flexible';
import { buildApp } from '../app.js';
import { banner, operatorNote } from './banner.js';
import type { EnvelopeMode } from '../server/context.js';
import { parseCorsOrigin } from '../server/hardening.js';
import { createServerLogger, parseAccessLogMode, type AccessLogMode } from '../server/logger.js';
import { joinClusterMetrics, serveClusterMetrics } from '../server/metrics.js';
import { loadPlans } from '../server/plans.js';
import { connectRedis, type FailMode } from '../server/rate-limit.js';
import { MIN_ADMIN_TOKEN_LENGTH } from '../server/admin-token.js';
import { openStore, SERVING_BUSY_TIMEOUT_MS, SERVING_CACHE_MIB, type Store } from '../store/index.js';
import { ensureReferenceFacts, loadDemo } from '../demo/load.js';
import { rollDemo } from '../demo/roll.js';
import { lastExtendedSession } from '../domain/calendar.js';
import { defaultBrandingDir } from '../routes/branding.js';
import { createDemoKey, createDemoOperator, OPERATOR_PASSWORD_FILE, writeSecretFile } from './demo.js';
import { SIGNUP_MODES, type SignupMode } from '../services/accounts.js';
import { attachStreaming } from '../stream/index.js';
import { relayFeedAmongWorkers, workerFeed } from '../stream/ipc-bus.js';
import { liveDemoOption, liveRateOption, serveLiveDemo, type LiveDemoWhen } from './live-demo.js';
import { cliLine, openStoreFromFlags, parseIntFlag, readEnvSwitches, withStoreOptions, type StoreFlags } from './options.js';
import { withRelayOptions, startRelayFromFlags, validateRelayFlags, type RelayFlags } from './relay.js';
import { upstreamKeyOption, upstreamUrlOption } from './upstream-options.js';

export interface ServeFlags extends StoreFlags, RelayFlags {
  port: number;
  host: string;
  envelope: EnvelopeMode;
  publicUrl?: string;
  demo: 'auto' | 'yes' | 'no';
  /** Extend a demo data set to the last completed session on start (--no-demo-roll: false). */
  demoRoll: boolean;
  brandingDir?: string;
  /** Risk-free rate for option greeks when no treasury yield is stored. */
  riskFreeRate?: number;
  responseCache: number;
  responseCacheMb: number;
  memoryBarsMb: number;
  memoryTicksMb: number;
  plans?: string;
  redisUrl?: string;
  adminToken?: string;
  workers: number;
  corsOrigin?: string;
  rateLimitFail: FailMode;
  shutdownTimeout: number;
  /** The web dashboard under /dashboard (--no-dashboard turns it off). */
  dashboard: boolean;
  signup: SignupMode;
  /** PostgreSQL: deadline of each store call while serving, in ms. */
  storeTimeout: number;
  trustProxy: boolean;
  /** Deadline of one Redis command, in ms. */
  redisTimeout: number;
  streamDelay: number;
  streamFuturesDelay: number;
  streamConnections: number;
  /** Seconds of the real-time feed kept for catch-up (0 = none). */
  streamHistory: number;
  liveDemo: LiveDemoWhen;
  liveRate: number;
  accessLog: AccessLogMode;
  /** Read-through from upstream: what the store lacks is fetched on a miss. */
  readThrough: boolean;
  upstreamUrl: string;
  upstreamKey?: string;
}

export function serveCommand(): Command {
  return withRelayOptions(withStoreOptions(new Command('serve').description('start the HTTP API server'))
    .addOption(new Option('--port <port>', 'TCP port').env('PORT').default(8080).argParser(parseIntFlag('--port', 0, 65535)))
    .addOption(new Option('--host <host>', 'address to listen on: this machine only by default; 0.0.0.0 (or ::) for every interface, e.g. in a container').env('HOST').default('127.0.0.1'))
    .addOption(new Option('--envelope <mode>', 'wrapped: {"ok":true,"data":{...}}; native: upstream flat bodies (for the official SDKs)').env('TICKERBASE_ENVELOPE').choices(['wrapped', 'native']).default('wrapped'))
    .addOption(new Option('--public-url <url>', 'absolute base URL used in next_url and links').env('TICKERBASE_PUBLIC_URL'))
    .addOption(new Option('--branding-dir <dir>', 'directory of branding images').env('TICKERBASE_BRANDING_DIR'))
    .addOption(new Option('--risk-free-rate <rate>', 'annual rate (e.g. 0.045) for option greeks when no 3-month treasury yield is stored').env('TICKERBASE_RISK_FREE_RATE').argParser(parseRateFlag))
    .addOption(new Option('--response-cache <entries>', 'answers kept in memory until the data changes (ticker overviews, reference lists, past ranges of aggregates and ticks; 0 = off)').env('TICKERBASE_RESPONSE_CACHE').default(10_000).argParser(parseIntFlag('--response-cache', 0, 10_000_000)))
    .addOption(new Option('--response-cache-mb <MiB>', 'memory the response cache may hold; an answer over an eighth of it is not kept').env('TICKERBASE_RESPONSE_CACHE_MB').default(32).argParser(parseIntFlag('--response-cache-mb', 1, 1_000_000)))
    .addOption(new Option('--memory-bars-mb <MiB>', 'memory for minute bars kept by day, from which ascending 1/minute aggregates are answered; 0 keeps none').env('TICKERBASE_MEMORY_BARS_MB').default(16).argParser(parseIntFlag('--memory-bars-mb', 0, 1_000_000)))
    .addOption(new Option('--memory-ticks-mb <MiB>', "memory for tickers' trades and quotes kept in memory (the newest 60,000 of each), from which descending v3 trade and quote pages are answered; 0 keeps none").env('TICKERBASE_MEMORY_TICKS_MB').default(64).argParser(parseIntFlag('--memory-ticks-mb', 0, 1_000_000)))
    .addOption(new Option('--demo <when>', 'load the demo data set: auto = on first start of the embedded store').env('TICKERBASE_DEMO').choices(['auto', 'yes', 'no']).default('auto'))
    .addOption(new Option('--no-demo-roll', 'do not extend the demo data set on start (to the last session whose after-hours have ended)').env('TICKERBASE_NO_DEMO_ROLL'))
    .addOption(new Option('--plans <file>', 'JSON file of plans (added to, or replacing, the built-in plans)').env('TICKERBASE_PLANS'))
    .addOption(new Option('--redis-url <url>', 'Redis shared by every process for rate limits (default: limits per host)').env('REDIS_URL'))
    .addOption(new Option('--admin-token <token>', `token of the admin API under /admin (at least ${MIN_ADMIN_TOKEN_LENGTH} characters; off when absent)`).env('TICKERBASE_ADMIN_TOKEN'))
    .addOption(new Option('--workers <n>', 'number of server processes on this host (node cluster)').env('TICKERBASE_WORKERS').default(1).argParser(parseIntFlag('--workers', 1, 64)))
    .addOption(new Option('--cors-origin <origins>', "browser origins allowed by CORS: '*' or a comma-separated list (default: no CORS)").env('TICKERBASE_CORS_ORIGIN'))
    .addOption(new Option('--rate-limit-fail <mode>', 'when Redis is unreachable: open = per-process limits, closed = 503').env('TICKERBASE_RATE_LIMIT_FAIL').choices(['open', 'closed']).default('open'))
    .addOption(new Option('--stream-delay <minutes>', 'hold-back of the delayed WebSocket feed at /delayed/<market>').env('TICKERBASE_STREAM_DELAY').default(15).argParser(parseIntFlag('--stream-delay', 0, 1440)))
    .addOption(new Option('--stream-futures-delay <minutes>', 'hold-back of the delayed futures feed at /delayed/futures').env('TICKERBASE_STREAM_FUTURES_DELAY').default(10).argParser(parseIntFlag('--stream-futures-delay', 0, 1440)))
    .addOption(new Option('--stream-connections <n>', 'WebSocket connections per key and market for plans that set no stream_connections').env('TICKERBASE_STREAM_CONNECTIONS').default(1).argParser(parseIntFlag('--stream-connections', 1, 100_000)))
    .addOption(new Option('--stream-history <seconds>', 'seconds of the real-time feed kept for clients that reconnect and subscribe with "since" (Tickerbase\'s catch-up; 0 = off)').env('TICKERBASE_STREAM_HISTORY').default(60).argParser(parseIntFlag('--stream-history', 0, 3600)))
    .addOption(liveDemoOption())
    .addOption(liveRateOption())
    .addOption(new Option('--shutdown-timeout <seconds>', 'on SIGTERM, how long in-flight requests may take before the process exits').env('TICKERBASE_SHUTDOWN_TIMEOUT').default(10).argParser(parseIntFlag('--shutdown-timeout', 1, 600)))
    .addOption(new Option('--signup <mode>', 'dashboard sign-up: open (anyone), invite (operator invitations), closed (accounts from `tickerbase users create`)').env('TICKERBASE_SIGNUP').choices([...SIGNUP_MODES]).default('open'))
    .option('--no-dashboard', 'do not serve the web dashboard under /dashboard')
    .addOption(new Option('--trust-proxy', 'behind a reverse proxy: build links from X-Forwarded-Proto/-Host and log X-Forwarded-For (when no --public-url)').env('TICKERBASE_TRUST_PROXY').default(false))
    .addOption(new Option('--redis-timeout <ms>', 'deadline of one Redis command; past it rate limits fail open or closed (--rate-limit-fail)').env('TICKERBASE_REDIS_TIMEOUT').default(1000).argParser(parseIntFlag('--redis-timeout', 50, 60_000)))
    .addOption(new Option('--access-log <which>', 'requests that get an access log line: all, errors (status >= 400), sample:N (errors and one in N others), off').env('TICKERBASE_ACCESS_LOG').default(parseAccessLogMode('all'), 'all').argParser(accessLogFlag))
    .addOption(new Option('--store-timeout <ms>', 'PostgreSQL: deadline of each query and of connecting while serving; past it the request gets 503 STORE_UNAVAILABLE').env('TICKERBASE_STORE_TIMEOUT').default(5000).argParser(parseIntFlag('--store-timeout', 100, 600_000)))
    .addOption(upstreamUrlOption())
    .addOption(upstreamKeyOption())
    .addOption(new Option('--read-through', 'fetch from upstream (with --upstream-key) what the store does not cover, store it and answer; see docs/sync-rest.md').env('TICKERBASE_READ_THROUGH').default(false)))
    .hook('preAction', readEnvSwitches)
    .action(async (opts: ServeFlags) => {
      await serve(opts);
    });
}

/** Checks the flags that can be wrong before anything starts. */
function validateFlags(opts: ServeFlags): void {
  if (opts.adminToken !== undefined && opts.adminToken.length < MIN_ADMIN_TOKEN_LENGTH) {
    throw new Error(`--admin-token must be at least ${MIN_ADMIN_TOKEN_LENGTH} characters`);
  }
  if (opts.redisUrl && !/^rediss?:\/\//.test(opts.redisUrl)) throw new Error(`--redis-url must be a redis:// or rediss:// URL`);
  if (opts.readThrough && !opts.upstreamKey) throw new Error('--read-through needs --upstream-key (or TICKERBASE_UPSTREAM_KEY)');
  parseCorsOrigin(opts.corsOrigin);
  loadPlans(opts.plans || undefined);
  validateRelayFlags(opts);
}

export async function serve(opts: ServeFlags): Promise<void> {
  validateFlags(opts);
  if (!cluster.isWorker) {
    const warning = exposureWarning(opts);
    if (warning) process.stderr.write(warning);
  }
  if (opts.workers > 1 && cluster.isPrimary) {
    await runPrimary(opts);
    return;
  }
  await runServer(opts);
}

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|::1|\[::1\])$/i;

/**
 * A warning when anyone who reaches the server may create a dashboard account: open sign-up on an
 * address other than this machine's loopback one.
 */
export function exposureWarning(opts: Pick<ServeFlags, 'host' | 'dashboard' | 'signup'>): string | undefined {
  if (!opts.dashboard || opts.signup !== 'open' || LOOPBACK.test(opts.host)) return undefined;
  return `warning: listening on ${opts.host} with open sign-up: anyone who can reach this address can create a dashboard account and API keys. Use --signup invite or --signup closed, or --host 127.0.0.1 for this machine only.\n`;
}

function accessLogFlag(value: string): AccessLogMode {
  try {
    return parseAccessLogMode(value);
  } catch (err) {
    throw new InvalidArgumentError((err as Error).message);
  }
}

function parseRateFlag(value: string): number {
  const rate = Number(value);
  if (!/^-?\d+(\.\d+)?$/.test(value.trim()) || rate < -0.1 || rate > 1) throw new InvalidArgumentError('--risk-free-rate must be an annual rate between -0.1 and 1, e.g. 0.045');
  return rate;
}

function brandingDirOf(opts: ServeFlags): string {
  return opts.brandingDir ?? defaultBrandingDir(opts.dataDir);
}

function keyFileOf(opts: ServeFlags): string {
  return join(opts.dataDir, 'demo-key');
}

/**
 * Migrations and the first-start demo, done once (by the primary when there are workers).
 * Returns what the banner says about keys: the demo key in full only on the start that created it.
 */
async function prepareStore(store: Store, opts: ServeFlags): Promise<KeyNotice> {
  const firstStart = (await store.meta.get('demo_loaded')) === undefined && (await store.reference.countTickers()) === 0;
  const wantDemo = opts.demo === 'yes' || (opts.demo === 'auto' && store.engine === 'sqlite' && firstStart);
  let created: string | undefined;
  if (wantDemo) {
    process.stderr.write('loading the demo data set (first start)…\n');
    await loadDemo(store, { asOf: lastExtendedSession(Date.now()), brandingDir: brandingDirOf(opts), log: (l) => process.stderr.write(`${l}\n`) });
    await store.refreshStatistics();
    if (!existsSync(keyFileOf(opts))) created = await createDemoKey(store, opts.dataDir);
    const operator = await createDemoOperator(store);
    if (operator) {
      const file = writeSecretFile(opts.dataDir, OPERATOR_PASSWORD_FILE, operator.password);
      demoOperatorNote = operatorNote({ ...operator, file }, process.stdout.isTTY === true);
    }
  }
  if (opts.demoRoll) {
    // The roll is one transaction: when it fails (another process holds SQLite's write lock past
    // the wait) nothing was written, and the server starts on the data as it is.
    await rollDemo(store, { nowMs: Date.now(), log: (l) => process.stderr.write(`${l}\n`) })
      .catch((err: unknown) => process.stderr.write(`demo: not extended: ${err instanceof Error ? err.message : String(err)}\n`));
  }
  await ensureReferenceFacts(store);
  return keyNotice(store, opts, created);
}

/** The demo operator's credentials, printed once with the banner of the start that created them. */
let demoOperatorNote = '';

/** What the banner says about keys, and the key its ready-to-paste lines show. */
interface KeyNotice {
  text: string;
  /** The demo key's secret on the start that created it; else its prefix, or YOUR_KEY, as a placeholder. */
  key: string;
}

/**
 * A key's secret is shown once, when it is created (and kept in the owner-only demo-key file for
 * the operator); later starts say where it is, whether it still works, and how to manage keys.
 */
async function keyNotice(store: Store, opts: ServeFlags, created: string | undefined): Promise<KeyNotice> {
  const keyFile = keyFileOf(opts);
  const manage = `List keys with \`${cliLine(opts, 'keys list')}\`, create one with \`${cliLine(opts, 'keys create --plan demo')}\`.\n`;
  if (created !== undefined) return { text: `Demo key (shown once; also saved, owner-only, in ${keyFile}): ${created}\n`, key: created };
  if (!existsSync(keyFile)) return { text: manage, key: 'YOUR_KEY' };
  const saved = readFileSync(keyFile, 'utf8').trim();
  const record = saved === '' ? undefined : await store.keys.findByKey(saved);
  if (record && !record.revoked_utc) return { text: `The demo key is in ${keyFile}. ${manage}`, key: `${record.prefix}…` };
  return { text: `The demo key saved in ${keyFile} ${record ? 'has been revoked' : 'no longer exists'}. ${manage}`, key: 'YOUR_KEY' };
}

function bannerOf(opts: ServeFlags, address: string, engine: string, workers: number, keys: KeyNotice): string {
  const text = banner({
    address,
    publicUrl: opts.publicUrl?.replace(/\/+$/, ''),
    details: [engine, `${opts.envelope} envelope at the root`, workers > 1 ? `${workers} workers` : '', opts.redisUrl ? 'Redis rate limits' : ''],
    rootEnvelope: opts.envelope,
    keyNotice: keys.text,
    key: keys.key,
    dashboardSignup: opts.dashboard ? opts.signup : undefined,
    operatorNote: demoOperatorNote,
  });
  demoOperatorNote = '';
  return text;
}

export interface ClosableParts {
  app: FastifyInstance;
  store: Store;
  redis?: Redis;
}

/** After the shutdown timeout cut the connections, how long closing may still take before giving up. */
export const SHUTDOWN_GRACE_MS = 1000;

/**
 * Graceful stop: refuse new connections, let in-flight requests finish (up to `timeoutMs`, after
 * which their connections are cut), flush usage counters (the app's onClose hooks), then close
 * Redis and the store. Resolves 'clean', or 'timeout' when the connections had to be cut or
 * closing was still stuck (a silent database) SHUTDOWN_GRACE_MS after that: the hard deadline,
 * after which the caller exits whatever is still pending.
 */
export async function closeGracefully(parts: ClosableParts, timeoutMs: number): Promise<'clean' | 'timeout'> {
  let cut: NodeJS.Timeout | undefined;
  let giveUp: NodeJS.Timeout | undefined;
  const deadline = new Promise<'timeout'>((resolve) => {
    cut = setTimeout(() => {
      parts.app.server.closeAllConnections();
      giveUp = setTimeout(() => resolve('timeout'), SHUTDOWN_GRACE_MS);
    }, timeoutMs);
  });
  const closing = (async () => {
    await parts.app.close();
    if (parts.redis) await parts.redis.quit().catch(() => parts.redis?.disconnect());
    await parts.store.close();
    return 'clean' as const;
  })();
  try {
    const outcome = await Promise.race([closing, deadline]);
    return outcome === 'clean' && giveUp === undefined ? 'clean' : 'timeout';
  } finally {
    clearTimeout(cut);
    clearTimeout(giveUp);
  }
}

/**
 * The store requests are served from: on PostgreSQL every statement and connection attempt has
 * the --store-timeout deadline; on SQLite a write waits at most SERVING_BUSY_TIMEOUT_MS for another
 * process's write lock (an import's) and is then refused with 503, since better-sqlite3 waits
 * synchronously and would freeze every request meanwhile. Migrations and the demo load run first
 * on a store without these limits (an index build or a bulk load may rightly take longer).
 */
async function openServingStore(opts: ServeFlags): Promise<{ store: Store; keys: KeyNotice }> {
  let keys: KeyNotice = { text: '', key: 'YOUR_KEY' };
  if (!cluster.isWorker) {
    const setup = await openStoreFromFlags(opts);
    try {
      keys = await prepareStore(setup, opts);
    } finally {
      await setup.close();
    }
  }
  if (!opts.databaseUrl) return { store: await openStore({ dataDir: opts.dataDir, migrate: false, busyTimeoutMs: SERVING_BUSY_TIMEOUT_MS, sqliteCacheMiB: SERVING_CACHE_MIB }), keys };
  const deadlines = { statementTimeoutMs: opts.storeTimeout, connectTimeoutMs: opts.storeTimeout };
  return { store: await openStore({ databaseUrl: opts.databaseUrl, migrate: false, deadlines }), keys };
}

async function runServer(opts: ServeFlags): Promise<void> {
  const { store, keys } = await openServingStore(opts);
  const publicUrl = opts.publicUrl?.replace(/\/+$/, '');
  if (publicUrl && !/^https?:\/\/[^/]+/.test(publicUrl)) throw new Error('--public-url must be an absolute http(s) URL');
  const { logger, flush: flushLog } = createServerLogger(undefined, { buffered: !cluster.isWorker });
  const redis = opts.redisUrl ? await connectRedis(opts.redisUrl, (err) => process.stderr.write(`redis: ${err.message}\n`), { commandTimeoutMs: opts.redisTimeout }) : undefined;
  let closing = false;
  const app = await buildApp({
    store,
    config: { envelope: opts.envelope, publicUrl, trustProxy: opts.trustProxy, brandingDir: brandingDirOf(opts), riskFreeRate: opts.riskFreeRate, responseCacheEntries: opts.responseCache, responseCacheBytes: opts.responseCacheMb * 2 ** 20, minuteDaysBytes: opts.memoryBarsMb * 2 ** 20, tickListBytes: opts.memoryTicksMb * 2 ** 20 },
    loggerInstance: logger,
    production: {
      accessLog: opts.accessLog,
      plans: loadPlans(opts.plans || undefined),
      redis,
      rateLimitFail: opts.rateLimitFail,
      adminToken: opts.adminToken || undefined,
      hardening: { corsOrigin: parseCorsOrigin(opts.corsOrigin) },
      closing: () => closing,
    },
    dashboard: opts.dashboard ? { signup: opts.signup, redis } : undefined,
    readThrough: opts.readThrough ? { upstreamUrl: opts.upstreamUrl, upstreamKey: opts.upstreamKey!, deadlineMs: opts.storeTimeout } : undefined,
  });
  // workers without Redis share the feed through the primary
  const feedBus = cluster.isWorker && !redis ? workerFeed(process, (msg) => app.log.warn(msg)) : {};
  const streaming = await attachStreaming(app, { ...feedBus, auth: app.ctx.auth, store, redis, redisPrefix: opts.redisPrefix, adminToken: opts.adminToken || undefined, delayMs: opts.streamDelay * 60_000, futuresDelayMs: opts.streamFuturesDelay * 60_000, connectionLimit: opts.streamConnections, history: { maxAgeMs: opts.streamHistory * 1000 } });
  await startRelayFromFlags(app, streaming, store, redis, opts);
  const liveDemo = await serveLiveDemo(store, streaming, opts.liveDemo, opts.liveRate, (l) => process.stderr.write(`${l}\n`));
  app.addHook('preClose', async () => liveDemo?.stop());
  if (cluster.isWorker) joinClusterMetrics();
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    const outcome = await closeGracefully({ app, store, redis }, opts.shutdownTimeout * 1000).catch((err: unknown) => {
      app.log.error({ err }, 'shutdown failed');
      return 'timeout' as const;
    });
    if (outcome === 'timeout') {
      app.log.error({ signal, shutdown_timeout_s: opts.shutdownTimeout }, 'shutdown deadline passed: requests still running were cut, exiting with status 1');
    }
    flushLog(); // lines still buffered, the access lines of the last requests among them
    process.exit(outcome === 'clean' ? 0 : 1);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
  const address = await app.listen({ port: opts.port, host: opts.host });
  if (!cluster.isWorker) process.stdout.write(bannerOf(opts, address, store.engine, 1, keys));
}

/**
 * The primary of `serve --workers N`: prepares the store, holds the cluster's rate-limit counters
 * (when there is no Redis) and metrics aggregation, forks the workers (which share the port),
 * replaces a worker that dies, and on SIGTERM stops them all gracefully.
 */
async function runPrimary(opts: ServeFlags): Promise<void> {
  const store = await openStoreFromFlags(opts);
  let keys: KeyNotice;
  try {
    keys = await prepareStore(store, opts);
  } finally {
    await store.close();
  }
  if (!opts.redisUrl) {
    new RateLimiterClusterMaster();
    relayFeedAmongWorkers(cluster, () => Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined));
  }
  serveClusterMetrics();

  let stopping = false;
  let announced = false;
  const recentDeaths: number[] = [];
  const fork = (): Worker => cluster.fork();
  cluster.on('listening', (_worker, address) => {
    if (announced) return;
    announced = true;
    const host = address.address && address.address !== '::' ? address.address : opts.host;
    const shown = host.includes(':') ? `[${host}]` : host;
    process.stdout.write(bannerOf(opts, `http://${shown}:${address.port}`, opts.databaseUrl ? 'postgres' : 'sqlite', opts.workers, keys));
  });
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) return;
    const now = Date.now();
    recentDeaths.push(now);
    while (recentDeaths.length && recentDeaths[0]! < now - 60_000) recentDeaths.shift();
    process.stderr.write(`worker ${worker.process.pid} exited (${signal ?? code}); `);
    if (recentDeaths.length > 2 * opts.workers) {
      process.stderr.write('workers keep dying; stopping\n');
      void stopAll(1);
      return;
    }
    process.stderr.write('starting a replacement\n');
    fork();
  });

  const stopAll = async (exitCode: number) => {
    stopping = true;
    const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined);
    const exits = workers.map((w) => new Promise<number>((res) => {
      if (w.isDead()) res(0);
      else w.once('exit', (code: number) => res(code ?? 0));
    }));
    for (const w of workers) w.process.kill('SIGTERM');
    const hard = setTimeout(() => {
      for (const w of workers) if (!w.isDead()) w.process.kill('SIGKILL');
    }, (opts.shutdownTimeout + 5) * 1000);
    const codes = await Promise.all(exits);
    clearTimeout(hard);
    process.exit(exitCode || (codes.every((c) => c === 0) ? 0 : 1));
  };
  process.once('SIGTERM', () => void stopAll(0));
  process.once('SIGINT', () => void stopAll(0));
  for (let i = 0; i < opts.workers; i++) fork();
}
