// The wire contract's example events (shared/fixtures/websocket, present on the developers'
// machines only) go through the feed unchanged: same keys, same values, exact integers.
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseJsonExact, type WireEvent } from '../../src/stream/json.js';
import type { FeedMarket } from '../../src/stream/markets.js';
import { RawClient, startFeedServer, type FeedServer } from './feed-helpers.js';

// The shared folder sits next to the checkout (or next to the folder of worktrees); the
// environment can name it.
const CANDIDATES = [
  ...(process.env.TICKERBASE_SHARED_DIR ? [new URL(`file://${process.env.TICKERBASE_SHARED_DIR.replace(/\/?$/, '/')}fixtures/websocket/`)] : []),
  new URL('../../../shared/fixtures/websocket/', import.meta.url),
  new URL('../../../../shared/fixtures/websocket/', import.meta.url),
];
const DIR = CANDIDATES.find((u) => existsSync(u)) ?? CANDIDATES[CANDIDATES.length - 1]!;
const present = existsSync(DIR);
if (!present) console.log('wire-contract fixtures test skipped: shared/fixtures/websocket is absent (it is not part of the repository; TICKERBASE_SHARED_DIR names it)');

let server: FeedServer;
let key: string;
beforeAll(async () => {
  if (!present) return;
  server = await startFeedServer({ connectionLimit: 10 });
  key = await server.keyFor('demo');
});
afterAll(async () => server?.close());

describe.skipIf(!present)('wire-contract fixtures through the feed', () => {
  for (const market of ['stocks', 'options', 'forex', 'crypto', 'indices', 'futures'] as FeedMarket[]) {
    it(market, async () => {
      const text = readFileSync(new URL(`${market}.json`, DIR), 'utf8');
      const byEv = parseJsonExact(text) as Record<string, WireEvent[]>;
      const events = Object.values(byEv).flat();
      const c = await RawClient.ready(`${server.base}/${market}`, key);
      const channels = Object.keys(byEv);
      const topicOf = (ev: string) => (market === 'options' && ev === 'Q' ? `Q.${String(byEv.Q![0]!.sym)}` : `${ev}.*`); // options quotes: per contract
      c.send({ action: 'subscribe', params: channels.map(topicOf).join(',') });
      for (let i = 0; i < channels.length; i++) await c.next();
      const raw: string[] = [];
      c.ws.on('message', (d) => raw.push(d.toString()));
      await server.streaming.publish(events, market);
      await c.events(events.length);
      const got = raw.map((r) => parseJsonExact(r) as WireEvent[]).flat();
      expect(got).toEqual(events);
      c.close();
    });
  }
});
