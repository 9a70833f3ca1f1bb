// `tickerbase demo --live` publishes the tape to a running server over POST /admin/publish and
// stops cleanly on SIGINT; futures only while CME Globex is open, as the tape's hours say.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { frontContracts } from '../../src/demo/futures-market.js';
import { tapeActivity } from '../../src/demo/live-hours.js';
import { nyDateOf } from '../../src/domain/calendar.js';
import { RawClient, startFeedServer } from './feed-helpers.js';

const ENTRY = fileURLToPath(new URL('../helpers/cli-entry.ts', import.meta.url));
const TOKEN = 'admin-token-for-the-demo-live-test-0123456789';
const dir = mkdtempSync(join(tmpdir(), 'tb-demo-live-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('tickerbase demo --live', () => {
  it('publishes the tape to a running server until interrupted', async () => {
    const server = await startFeedServer({ adminToken: TOKEN, connectionLimit: 5 });
    try {
      const c = await RawClient.ready(`${server.base}/crypto`, await server.keyFor('demo'));
      c.send({ action: 'subscribe', params: 'XT.*,XQ.*' });
      await c.next();
      await c.next();
      // futures events need ?market=futures on their own request: their symbols do not say it
      const f = await RawClient.ready(`${server.base}/futures`, await server.keyFor('demo'));
      f.send({ action: 'subscribe', params: 'T.*' });
      await f.next();
      const url = server.base.replace(/^ws/, 'http');
      const child = spawn(process.execPath, ['--import', 'tsx', ENTRY, 'demo', '--live', '--url', url, '--admin-token', TOKEN, '--data-dir', dir, '--live-rate', '300'], {
        env: { ...process.env, DATABASE_URL: '', TICKERBASE_DATA_DIR: '' },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let err = '';
      child.stderr.on('data', (d: Buffer) => (err += d.toString()));
      const events = await c.events(5, 30_000);
      expect(events.every((e) => e.ev === 'XT' || e.ev === 'XQ')).toBe(true);
      const contracts = frontContracts(nyDateOf(Date.now())).map((x) => x.ticker);
      if (tapeActivity('futures', Date.now()) > 0) {
        const futuresTrades = await f.events(2, 30_000);
        expect(futuresTrades.every((e) => e.ev === 'T' && contracts.includes(e.sym as string))).toBe(true);
      } else {
        // CME Globex's daily maintenance hour (17:00-18:00 ET), a weekend or a holiday: the tape
        // prints no futures while crypto trades on
        const quiet = await f.next(2_000).then(
          (frame) => frame,
          () => undefined,
        );
        if (tapeActivity('futures', Date.now()) === 0) expect(quiet).toBeUndefined();
      }
      f.close();
      const exited = new Promise<number | null>((res) => child.once('exit', (code) => res(code)));
      child.kill('SIGINT');
      expect(await exited).toBe(0);
      expect(err).toMatch(/sent \d+ events/);
      c.close();
    } finally {
      await server.close();
    }
  }, 60_000);
});
