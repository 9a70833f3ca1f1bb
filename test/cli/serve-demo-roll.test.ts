// `serve` extends a demo data set loaded days ago before it listens; --no-demo-roll and
// TICKERBASE_NO_DEMO_ROLL leave it as it is. The store holds a small demo subset loaded two
// sessions before the last completed one (by the real clock the server reads).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureReferenceFacts } from '../../src/demo/load.js';
import { lastExtendedSession, nyMidnight, previousTradingDay } from '../../src/domain/calendar.js';
import { readDemoState, writeDemoState } from '../../src/demo/demo-state.js';
import { loadDemoMarket } from '../../src/demo/market.js';
import { openStore } from '../../src/store/index.js';
import { startServe } from '../helpers/cli.js';

describe('serve rolls the demo forward on start', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tickerbase-roll-'));
  const asOf = previousTradingDay(previousTradingDay(lastExtendedSession(Date.now())));
  const serveArgs = ['--data-dir', dir, '--port', '0', '--host', '127.0.0.1', '--demo', 'no', '--live-demo', 'no'];
  const storedState = async () => {
    const store = await openStore({ dataDir: dir });
    try {
      return { state: await readDemoState(store), spxDays: (await store.market.readBars('day', { ticker: 'I:SPX', fromMs: nyMidnight(asOf), toMs: Date.now(), order: 'asc', limit: 100 })).map((b) => b.t) };
    } finally {
      await store.close();
    }
  };
  beforeAll(async () => {
    const store = await openStore({ dataDir: dir });
    try {
      await loadDemoMarket(store, { asOf, scale: 1 }, ['I:SPX', 'X:BTCUSD']);
      await store.meta.set('demo_loaded', new Date().toISOString());
      await writeDemoState(store, { asOf, scale: 1, pinned: false });
      await ensureReferenceFacts(store);
    } finally {
      await store.close();
    }
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('--no-demo-roll and TICKERBASE_NO_DEMO_ROLL skip the roll, a store locked by another process starts unrolled; a plain start extends to the last completed session before listening', async () => {
    for (const [args, env] of [[['--no-demo-roll'], {}], [[], { TICKERBASE_NO_DEMO_ROLL: '1' }]] as const) {
      const server = await startServe([...serveArgs, ...args], env);
      expect(await server.stop()).toBe(0);
      expect(server.output()).not.toContain('demo: extended');
      const { state, spxDays } = await storedState();
      expect(state?.asOf).toBe(asOf);
      expect(spxDays).toEqual([nyMidnight(asOf)]);
    }
    // another process holds the write lock past the wait: the server starts on the data as it is
    const holder = new Database(join(dir, 'tickerbase.db'));
    holder.exec('BEGIN IMMEDIATE');
    try {
      const blocked = await startServe(serveArgs);
      expect(await blocked.stop()).toBe(0);
      expect(blocked.output()).toMatch(/demo: not extended: /);
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
    expect((await storedState()).state?.asOf).toBe(asOf);
    // TICKERBASE_NO_DEMO_ROLL=false means roll
    const server = await startServe(serveArgs, { TICKERBASE_NO_DEMO_ROLL: 'false' });
    expect(await server.stop()).toBe(0);
    const out = server.output();
    const last = lastExtendedSession(Date.now());
    expect(out).toMatch(new RegExp(`demo: extended to ${last}: stocks to ${last} \\(2 sessions after ${asOf}\\)`));
    expect(out.indexOf('demo: extended')).toBeLessThan(out.indexOf('listening on'));
    const { state, spxDays } = await storedState();
    expect(state?.asOf).toBe(last);
    expect(spxDays).toEqual([asOf, previousTradingDay(last), last].map(nyMidnight));
  }, 240_000);
});
