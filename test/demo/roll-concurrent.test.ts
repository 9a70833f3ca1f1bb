// Two processes starting at once on one store roll the demo once: the roll re-reads the demo's
// state under a lock (PostgreSQL: an advisory lock; SQLite: its write lock) and the later one
// finds nothing left to do.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { writeDemoState } from '../../src/demo/demo-state.js';
import { loadDemoMarket } from '../../src/demo/market.js';
import { rollDemo } from '../../src/demo/roll.js';
import { openStore, type Store } from '../../src/store/index.js';
import { sqlOf } from '../../src/store/inspect.js';
import { openPostgresStore } from '../helpers/engines.js';

const AS_OF = '2026-11-20';
const NOW = Date.parse('2026-11-25T15:00:00Z');
const TICKERS = ['I:SPX', 'X:BTCUSD'];
const ROLL_ONCE = fileURLToPath(new URL('../helpers/roll-once.ts', import.meta.url));

async function prepare(store: Store): Promise<void> {
  await loadDemoMarket(store, { asOf: AS_OF, scale: 1 }, TICKERS);
  await writeDemoState(store, { asOf: AS_OF, scale: 1, pinned: false });
}

async function dayBarCount(store: Store): Promise<number> {
  return Number((await sqlOf(store).get('SELECT COUNT(*) AS n FROM day_bars'))!.n);
}

function rollInProcess(dataDir: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', ROLL_ONCE, dataDir, String(NOW)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`roll exited with ${code}: ${err}`))));
  });
}

describe('two processes rolling one demo at once', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('SQLite: one of them adds the sessions, the other finds nothing to do', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tickerbase-roll2-'));
    dirs.push(dir);
    const store = await openStore({ dataDir: dir });
    try {
      await prepare(store);
      const loaded = await dayBarCount(store);
      const outputs = (await Promise.all([rollInProcess(dir), rollInProcess(dir)])).map((o) => JSON.parse(o));
      expect(outputs.filter((o) => o === null)).toHaveLength(1);
      expect(outputs.find((o) => o !== null)).toEqual(['2026-11-23', '2026-11-24']);
      // I:SPX: two sessions; X:BTCUSD: the 21st to the 25th (the 25th in part)
      expect(await dayBarCount(store)).toBe(loaded + 2 + 5);
    } finally {
      await store.close();
    }
  }, 120_000);

  it.runIf(process.env.DATABASE_URL)('PostgreSQL: one of them adds the sessions, the other finds nothing to do', async () => {
    const url = process.env.DATABASE_URL!;
    const a = await openPostgresStore(url);
    const schema = String((await sqlOf(a).get('SELECT current_schema() AS s'))!.s);
    const b = await openStore({ databaseUrl: url, schema });
    try {
      await prepare(a);
      const loaded = await dayBarCount(a);
      const results = await Promise.all([rollDemo(a, { nowMs: NOW }), rollDemo(b, { nowMs: NOW })]);
      expect(results.filter((r) => r === undefined)).toHaveLength(1);
      expect(results.find((r) => r !== undefined)?.sessions).toEqual(['2026-11-23', '2026-11-24']);
      expect(await dayBarCount(a)).toBe(loaded + 2 + 5);
    } finally {
      await b.close();
      await a.close();
    }
  }, 120_000);
});
