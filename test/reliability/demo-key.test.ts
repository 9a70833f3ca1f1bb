import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, startServe } from '../helpers/cli.js';

// A key's secret is printed once, by the start that created it. Later starts (logs are kept,
// shipped, shared) say where the key is and how to manage keys, and that it was revoked if so.

describe('serve prints the demo key only when it creates it', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tickerbase-demokey-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const serveArgs = ['--data-dir', dir, '--port', '0', '--host', '127.0.0.1'];

  it('first start shows it; later starts do not, and say when it was revoked', async () => {
    const first = await startServe(serveArgs);
    const key = readFileSync(join(dir, 'demo-key'), 'utf8').trim();
    try {
      expect(first.output()).toContain(`Demo key (shown once; also saved, owner-only, in ${join(dir, 'demo-key')}): ${key}`);
      expect(first.output()).not.toContain(`apiKey=${key}`); // the example sends it in a header, not a URL
    } finally {
      expect(await first.stop()).toBe(0);
    }

    const second = await startServe(serveArgs);
    try {
      expect(second.output()).not.toContain(key);
      expect(second.output()).toContain(`The demo key is in ${join(dir, 'demo-key')}. List keys with \`npx tickerbase keys list --data-dir ${dir}\``);
    } finally {
      await second.stop();
    }

    const listed = JSON.parse(runCli(['keys', 'list', '--json', '--data-dir', dir]).stdout) as { id: string; label?: string }[];
    const demo = listed.find((k) => k.label === 'demo')!;
    expect(runCli(['keys', 'revoke', demo.id, '--data-dir', dir]).status).toBe(0);

    const third = await startServe(serveArgs);
    try {
      expect(third.output()).not.toContain(key);
      expect(third.output()).toContain(`The demo key saved in ${join(dir, 'demo-key')} has been revoked. List keys with`);
      expect(third.output()).toContain(`create one with \`npx tickerbase keys create --plan demo --data-dir ${dir}\``);
    } finally {
      await third.stop();
    }
  }, 240_000);
});
