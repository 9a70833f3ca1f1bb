// The official @massive.com/client-js WebSocket client, unchanged, pointed at a Tickerbase host:
// it connects to each market, authenticates (it sends auth on open), subscribes, and receives
// published events with every field; a bad key gets auth_failed; a second connection evicts it.
import { websocketClient } from '@massive.com/client-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asParsed, SAMPLES } from './samples.js';
import { startFeedServer, type FeedServer } from './feed-helpers.js';

type W3C = ReturnType<ReturnType<typeof websocketClient>['stocks']>;

let server: FeedServer;
let key: string;

beforeAll(async () => {
  server = await startFeedServer({ connectionLimit: 1 });
  key = await server.keyFor('demo');
});
afterAll(async () => server.close());

/** Frames a client receives, parsed as the client's own examples do. */
function collect(ws: W3C): { frames: unknown[][]; closed: Promise<number>; until(pred: (f: unknown[][]) => boolean): Promise<void> } {
  const frames: unknown[][] = [];
  const waiters: (() => void)[] = [];
  ws.onmessage = ({ data }: { data: unknown }) => {
    frames.push(JSON.parse(String(data)) as unknown[]);
    for (const w of waiters.splice(0)) w();
  };
  const closed = new Promise<number>((res) => {
    ws.onclose = (e: { code: number }) => res(e.code);
  });
  return {
    frames,
    closed,
    async until(pred) {
      const deadline = Date.now() + 5000;
      while (!pred(frames)) {
        if (Date.now() > deadline) throw new Error(`timed out; frames: ${JSON.stringify(frames)}`);
        await new Promise<void>((res) => {
          waiters.push(res);
          setTimeout(res, 100);
        });
      }
    },
  };
}

const statusOf = (f: unknown[]) => (f[0] as { status?: string }).status;

const MARKETS = ['stocks', 'options', 'forex', 'crypto', 'indices', 'futures'] as const;

describe('@massive.com/client-js against Tickerbase', () => {
  for (const market of MARKETS) {
    it(`${market}: connects, authenticates, subscribes and receives every field`, async () => {
      const ws = websocketClient(key, server.base)[market]();
      const c = collect(ws);
      await c.until((f) => f.some((x) => statusOf(x) === 'auth_success'));
      expect(statusOf(c.frames[0]!)).toBe('connected');
      const events = SAMPLES[market]!;
      // options quotes are subscribed per contract (no wildcard), everything else with `*`
      const topicOf = (e: (typeof events)[number]) => (market === 'options' && e.ev === 'Q' ? `Q.${String(e.sym)}` : `${e.ev}.*`);
      const topics = [...new Set(events.map(topicOf))].join(',');
      ws.send(JSON.stringify({ action: 'subscribe', params: topics }));
      await c.until((f) => f.filter((x) => statusOf(x) === 'success').length === topics.split(',').length);
      await server.streaming.publish(events, market === 'futures' ? 'futures' : undefined);
      const data = () => c.frames.filter((f) => statusOf(f) === undefined).flat();
      await c.until(() => data().length >= events.length);
      expect(data()).toEqual(asParsed(events));
      ws.close();
      await c.closed;
    });
  }

  it('a bad key gets auth_failed and the connection is closed', async () => {
    const ws = websocketClient('wrong-key', server.base).stocks();
    const c = collect(ws);
    expect(await c.closed).toBe(1008);
    expect(c.frames.map(statusOf)).toEqual(['connected', 'auth_failed']);
  });

  it('a second connection with the same key evicts the first with max_connections', async () => {
    const first = websocketClient(key, server.base).options();
    const a = collect(first);
    await a.until((f) => f.some((x) => statusOf(x) === 'auth_success'));
    const second = websocketClient(key, server.base).options();
    const b = collect(second);
    await b.until((f) => f.some((x) => statusOf(x) === 'auth_success'));
    expect(await a.closed).toBe(1008);
    expect(statusOf(a.frames.at(-1)!)).toBe('max_connections');
    second.close();
    await b.closed;
  });

  it('reaches the delayed feed through a /delayed base', async () => {
    const ws = websocketClient(key, `${server.base}/delayed`).indices();
    const c = collect(ws);
    await c.until((f) => f.some((x) => statusOf(x) === 'auth_success'));
    ws.close();
    await c.closed;
  });
});
