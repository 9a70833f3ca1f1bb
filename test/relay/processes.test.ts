// Two `tickerbase serve --relay stocks` processes on one store and one Redis: exactly one upstream
// connection however many local clients on either, every event to every subscriber of both
// through the Redis fan-out, and when the process holding the connection is killed the other
// takes it over within 10 s, telling its clients and repairing the gap from upstream's REST API.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/index.js';
import { FakeUpstreamFeed, FakeUpstreamRest, waitFor } from '../helpers/fake-upstream-feed.js';
import { spawnServe, type ServeProcess } from '../scale/serve-process.js';
import { SdkClient, trades } from './relay-helpers.js';

const REDIS_URL = process.env.REDIS_URL;
if (!REDIS_URL) console.log('Relay process tests skipped: REDIS_URL is not set (CI sets it).');

const T0 = Date.UTC(2026, 11, 4, 15, 30);

describe.skipIf(!REDIS_URL)('relay across two processes (Redis lease)', () => {
  let dir: string;
  let upstream: FakeUpstreamFeed;
  let rest: FakeUpstreamRest;
  const procs: ServeProcess[] = [];
  const clients: SdkClient[] = [];
  let key: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tb-relay-'));
    const store = await openStore({ dataDir: dir });
    key = (await store.keys.create({ plan: 'demo', label: 'relay test' })).key;
    await store.close();
    upstream = await FakeUpstreamFeed.start();
    rest = await new FakeUpstreamRest().start();
    const args = ['--data-dir', dir, '--redis-url', REDIS_URL!, '--redis-prefix', `tbrelay:${randomBytes(6).toString('hex')}:`, '--relay', 'stocks', '--upstream-feed', upstream.base, '--upstream-url', rest.base, '--stream-connections', '100', '--live-demo', 'no', '--envelope', 'native'];
    const env = { TICKERBASE_UPSTREAM_KEY: 'upstream-key', LOG_LEVEL: 'info' };
    procs.push(...(await Promise.all([spawnServe(args, env), spawnServe(args, env)])));
  }, 180_000);

  afterAll(async () => {
    for (const c of clients) c.close();
    for (const p of procs) await p.stop();
    await upstream?.close();
    await rest?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** What local client k subscribes to (client k connects to process k % 2). */
  const topicOf = (k: number) => (k % 4 === 0 ? 'T.*' : 'T.TWOA');
  const wsBase = (p: ServeProcess) => p.url.replace(/^http/, 'ws');
  const holder = () => procs.find((p) => p.output().includes('this process holds the stocks upstream connection') && p.child.exitCode === null && p.child.signalCode === null);

  it('one upstream connection for 20 local clients over two processes; every event reaches every subscriber in order', async () => {
    await waitFor(() => upstream.connections('stocks') === 1, 'one relay connected upstream', 20_000);
    for (let k = 0; k < 20; k++) clients.push(await SdkClient.open(key, wsBase(procs[k % 2]!)));
    for (const [k, c] of clients.entries()) await c.subscribe(topicOf(k));
    await waitFor(() => upstream.subscriptions('stocks').has('T.*') && upstream.subscriptions('stocks').has('T.TWOA'), 'the union subscribed upstream');
    const script = [...trades('TWOA', 60, T0), ...trades('TWOB', 20, T0, 60)];
    upstream.send('stocks', script, 9);
    for (const [k, c] of clients.entries()) {
      const expected = k % 4 === 0 ? script : script.filter((e) => e.sym === 'TWOA');
      await c.until(() => c.events().length >= expected.length, `client ${k}`);
      expect(c.events()).toEqual(expected);
    }
    expect(upstream.connections()).toBe(1);
    expect(upstream.authenticated).toBe(1);
    // recorded once, visible over REST on both processes
    for (const p of procs) {
      await waitFor(async () => {
        const res = await fetch(`${p.url}/v3/trades/TWOB?limit=100&apiKey=${key}`);
        return ((await res.json()) as { results?: unknown[] }).results?.length === 20;
      }, 'the trades over REST');
    }
  });

  it('a subscription held only on the other process is kept upstream, and dropped when it goes', async () => {
    const other = procs.find((p) => p !== holder())!;
    const c = await SdkClient.open(key, wsBase(other));
    await c.subscribe('T.ONLYB');
    await waitFor(() => upstream.subscriptions('stocks').has('T.ONLYB'), 'T.ONLYB upstream');
    c.close();
    await waitFor(() => !upstream.subscriptions('stocks').has('T.ONLYB'), 'T.ONLYB dropped upstream');
  });

  it('kill the holder: the other process takes the connection over within 10 s and its clients go on', async () => {
    // log lines are written a batch at a time: wait for the holder's
    await waitFor(() => holder() !== undefined, 'the holder to say so');
    const dying = holder()!;
    const survivor = procs.find((p) => p !== dying)!;
    const survivors = clients.filter((_, k) => procs[k % 2] === survivor);
    const authBefore = upstream.authenticated;
    const killedAt = Date.now();
    dying.child.kill('SIGKILL');
    rest.trades.set('TWOA', [{ sip_timestamp: BigInt(killedAt + 500) * 1_000_000n, price: 99, size: 1, exchange: 4, id: 'during', sequence_number: 77n }]);
    await waitFor(() => upstream.authenticated > authBefore && upstream.connections('stocks') === 1, 'a new upstream connection', 15_000);
    const tookMs = Date.now() - killedAt;
    expect(tookMs).toBeLessThan(10_000);
    await waitFor(() => survivor.output().includes('this process holds the stocks upstream connection'), "the survivor's log line");
    // what the survivor's own clients hold: the dead process's clients went with it, and its
    // demand in Redis has expired by the time its lease has
    const wanted = [...new Set(clients.map((_, k) => k).filter((k) => procs[k % 2] === survivor).map(topicOf))].sort();
    const tradeTopics = () => [...upstream.subscriptions('stocks')].filter((t) => t.startsWith('T.')).sort();
    await waitFor(() => JSON.stringify(tradeTopics()) === JSON.stringify(wanted), `the survivor demand (${wanted.join(', ')}) subscribed`);
    const more = trades('TWOA', 5, T0, 200);
    upstream.send('stocks', more);
    for (const c of survivors) {
      await c.until(() => c.events().slice(-5).every((e, i) => e.i === more[i]!.i), 'events after the takeover');
      expect(c.closedWith).toBeUndefined();
      expect(c.notices().some((n) => n.status === 'error' && n.message.includes('the process holding the connection stopped'))).toBe(true);
    }
    await waitFor(async () => {
      const res = await fetch(`${survivor.url}/v3/trades/TWOA?limit=1000&apiKey=${key}&timestamp.gte=${BigInt(killedAt) * 1_000_000n}`);
      return ((await res.json()) as { results?: { id: string }[] }).results?.some((t) => t.id === 'during') === true;
    }, 'the gap left by the dead holder repaired');
    await waitFor(() => /repaired the stocks gap .* 1 trades/.test(survivor.output()), 'the repair log line');
  }, 60_000);
});
