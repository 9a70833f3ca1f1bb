// The live demo market from the command line: in the server (`serve --live-demo`, on by default
// for the embedded store holding the demo data set, i.e. `npm start` on a fresh data dir) or
// against a running server (`tickerbase demo --live`, publishing over POST /admin/publish).
import cluster from 'node:cluster';
import { Option } from 'commander';
import { startLiveDemo, type LiveDemo } from '../demo/live.js';
import type { Store } from '../store/index.js';
import type { Streaming } from '../stream/index.js';
import { encodeEvent } from '../stream/json.js';
import type { PublishedEvent } from '../stream/publish-input.js';
import { openStoreFromFlags, parseIntFlag, type StoreFlags } from './options.js';

export type LiveDemoWhen = 'auto' | 'yes' | 'no';

export const liveDemoOption = () =>
  new Option('--live-demo <when>', 'publish the live demo tape on the feed: auto = when the embedded store holds the demo data set')
    .env('TICKERBASE_LIVE_DEMO').choices(['auto', 'yes', 'no']).default('auto');

export const liveRateOption = () =>
  new Option('--live-rate <events>', 'events a second of the live demo tape').env('TICKERBASE_LIVE_RATE').default(200).argParser(parseIntFlag('--live-rate', 1, 100_000));

/** Starts the tape in this server process when asked (one worker of a cluster runs it). */
export async function serveLiveDemo(store: Store, streaming: Streaming, when: LiveDemoWhen, rate: number, log: (line: string) => void): Promise<LiveDemo | undefined> {
  if (when === 'no' || (cluster.isWorker && cluster.worker?.id !== 1)) return undefined;
  if (when === 'auto' && !(store.engine === 'sqlite' && (await store.meta.get('demo_loaded')) !== undefined)) return undefined;
  return startLiveDemo({ market: store.market, futures: store.futures, options: store, publish: (items) => streaming.publisher.publish(items), rate, log });
}

/**
 * A publish function that posts NDJSON to a server's /admin/publish, with a deadline. Futures
 * events go in a request of their own with ?market=futures (their symbols do not say it).
 */
export function httpPublisher(url: string, adminToken: string): (items: PublishedEvent[]) => Promise<void> {
  const endpoint = `${url.replace(/\/+$/, '')}/admin/publish`;
  const post = async (items: PublishedEvent[], query: string) => {
    if (items.length === 0) return;
    const res = await fetch(`${endpoint}${query}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/x-ndjson' },
      body: items.map((i) => encodeEvent(i.event)).join('\n'),
      signal: AbortSignal.timeout(5000),
    });
    if (!res.ok) throw new Error(`${endpoint}: HTTP ${res.status} ${(await res.text()).slice(0, 200)}`);
  };
  return async (items) => {
    await post(items.filter((i) => i.market !== 'futures'), '');
    await post(items.filter((i) => i.market === 'futures'), '?market=futures');
  };
}

/** `tickerbase demo --live`: the tape from the store's last prices, published to a running server until SIGINT/SIGTERM. */
export async function runLiveDemo(opts: StoreFlags & { url: string; adminToken?: string; liveRate: number }): Promise<void> {
  if (!opts.adminToken) throw new Error('--live needs the server\'s --admin-token (or TICKERBASE_ADMIN_TOKEN)');
  if (!/^https?:\/\/[^/]+/.test(opts.url)) throw new Error(`--url must be an absolute http(s) URL, got ${opts.url}`);
  const store = await openStoreFromFlags(opts);
  const log = (l: string) => process.stderr.write(`${l}\n`);
  const demo = await startLiveDemo({ market: store.market, futures: store.futures, options: store, publish: httpPublisher(opts.url, opts.adminToken), rate: opts.liveRate, log });
  log(`publishing to ${opts.url}; Ctrl-C stops`);
  const keepAlive = setInterval(() => undefined, 60_000); // the tape's own timer does not hold the process
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  clearInterval(keepAlive);
  await demo.stop();
  await store.close();
  log(`sent ${demo.sent()} events`);
}
