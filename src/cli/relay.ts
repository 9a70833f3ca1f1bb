// `serve --relay …`: the flags of the upstream relay and its start beside the feed. The upstream
// key is read from a flag or TICKERBASE_UPSTREAM_KEY and goes only to upstream (the feed's auth
// message and the gap repair's Authorization header); it is never printed.
import { InvalidArgumentError, Option, type Command } from 'commander';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { readyChecksOf } from '../server/ready-checks.js';
import type { Store } from '../store/index.js';
import type { Streaming } from '../stream/index.js';
import { FEED_MARKETS, type FeedMarket } from '../stream/markets.js';
import { fixedTopicsByMarket, Relay } from '../stream/relay/index.js';
import { RestGapSource } from '../upstream/rest-gap-source.js';

export interface RelayFlags {
  upstreamFeed: string;
  upstreamKey?: string;
  /** Upstream's REST base (`--upstream-url`, shared with `sync rest` and read-through): the gap repair asks it. */
  upstreamUrl: string;
  relay?: FeedMarket[];
  relaySubscribe?: string;
  relayRecord: 'yes' | 'no';
  /** Prefix of the feed's and the relay's Redis keys and channels. */
  redisPrefix: string;
}

function marketsFlag(value: string): FeedMarket[] {
  const markets = value.split(',').map((m) => m.trim()).filter((m) => m !== '');
  for (const m of markets) {
    if (!(FEED_MARKETS as readonly string[]).includes(m)) throw new InvalidArgumentError(`--relay: ${m} is not a market (${FEED_MARKETS.join(', ')})`);
  }
  return [...new Set(markets)] as FeedMarket[];
}

function urlFlag(name: string, schemes: RegExp) {
  return (value: string): string => {
    if (!schemes.test(value)) throw new InvalidArgumentError(`${name} must be a ${schemes.source.replace(/[\\^()]/g, '')} URL`);
    return value.replace(/\/+$/, '');
  };
}

/** The relay's flags, added to `serve`. */
export function withRelayOptions(cmd: Command): Command {
  for (const option of relayOptions()) cmd.addOption(option);
  return cmd;
}

function relayOptions(): Option[] {
  return [
    new Option('--relay <markets>', 'relay upstream\'s WebSocket feed for these markets (e.g. stocks,crypto): one upstream connection shared by every local client').env('TICKERBASE_RELAY').argParser(marketsFlag),
    new Option('--upstream-feed <url>', 'upstream WebSocket feed host the relay connects to').env('TICKERBASE_UPSTREAM_FEED').default('wss://socket.massive.com').argParser(urlFlag('--upstream-feed', /^wss?:\/\//)),
    new Option('--relay-subscribe <topics>', 'topics the relay always subscribes upstream, whatever local clients want (e.g. "T.*,AM.*"; crypto:XT.* names one market)').env('TICKERBASE_RELAY_SUBSCRIBE'),
    new Option('--redis-prefix <prefix>', "prefix of the feed's and the relay's Redis keys and channels (deployments sharing one Redis use one each)").env('TICKERBASE_REDIS_PREFIX').default('tickerbase:'),
    new Option('--relay-record <yes|no>', 'store relayed trades, quotes and minute bars, and repair outage gaps from the REST API').env('TICKERBASE_RELAY_RECORD').choices(['yes', 'no']).default('yes'),
  ];
}

/** Checks the relay's flags before anything starts. */
export function validateRelayFlags(opts: RelayFlags & { workers: number; redisUrl?: string }): void {
  if (!opts.relay || opts.relay.length === 0) return;
  if (!opts.upstreamKey) throw new Error('--relay needs the upstream key: --upstream-key or TICKERBASE_UPSTREAM_KEY');
  if (opts.workers > 1 && !opts.redisUrl) throw new Error('--relay with --workers > 1 needs --redis-url: the workers share one upstream connection through a lease in Redis');
  fixedTopicsByMarket(splitTopics(opts.relaySubscribe), opts.relay);
}

const splitTopics = (v: string | undefined) => (v ?? '').split(',').map((t) => t.trim()).filter((t) => t !== '');

/** Starts the relay when --relay names markets; it is closed with the app. */
export async function startRelayFromFlags(app: FastifyInstance, streaming: Streaming, store: Store, redis: Redis | undefined, opts: RelayFlags): Promise<Relay | undefined> {
  if (!opts.relay || opts.relay.length === 0 || !opts.upstreamKey) return undefined;
  const record = opts.relayRecord === 'yes';
  const relay = await Relay.start({
    hub: streaming.hub,
    broker: streaming.broker,
    markets: opts.relay,
    feedUrl: opts.upstreamFeed,
    key: opts.upstreamKey,
    fixed: splitTopics(opts.relaySubscribe),
    record,
    store,
    gapSource: record ? new RestGapSource({ baseUrl: opts.upstreamUrl, key: opts.upstreamKey }) : undefined,
    redis,
    redisPrefix: opts.redisPrefix,
    log: { info: (m) => app.log.info(m), warn: (m, err) => app.log.warn({ err }, m), error: (m) => app.log.error(m) },
  });
  readyChecksOf(app).set('relay', () => relay.readyReport());
  app.addHook('preClose', async () => relay.close());
  return relay;
}
