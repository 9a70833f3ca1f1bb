// `tickerbase demo --live`: the live demo tape, read from the store's last prices and published
// to a running server until SIGINT/SIGTERM.
import { startLiveDemo } from '../demo/live.js';
import { httpPublisher } from './live-demo.js';
import { openStoreFromFlags, type StoreFlags } from './options.js';

export async function runLiveDemo(opts: StoreFlags & { url: string; adminToken?: string; liveRate: number }): Promise<void> {
  if (!opts.adminToken) throw new Error('--live needs the server\'s --admin-token (or TICKERBASE_ADMIN_TOKEN)');
  if (!/^https?:\/\/[^/]+/.test(opts.url)) throw new Error(`--url must be an absolute http(s) URL, got ${opts.url}`);
  const store = await openStoreFromFlags(opts);
  const log = (l: string) => process.stderr.write(`${l}\n`);
  const demo = await startLiveDemo({ market: store.market, publish: httpPublisher(opts.url, opts.adminToken), rate: opts.liveRate, log });
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
