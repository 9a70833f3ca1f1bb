import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createDemoOperator, DEMO_OPERATOR_EMAIL } from '../../src/cli/demo.js';
import { verifyPassword } from '../../src/services/passwords.js';
import { openStore } from '../../src/store/index.js';
import { runCli } from '../helpers/cli.js';

describe('tickerbase users', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tickerbase-users-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('creates an operator with a generated password printed once; list shows the account, never the password', async () => {
    const created = runCli(['users', 'create', '--email', 'Boss@Example.com', '--admin', '--data-dir', dir], {});
    expect(created.status, created.stderr).toBe(0);
    expect(created.stderr).toMatch(/operator/);
    const password = created.stdout.trim().split('\n').pop()!;
    expect(password.length).toBeGreaterThanOrEqual(20);
    const store = await openStore({ dataDir: dir });
    try {
      const creds = await store.accounts.credentialsByEmail('boss@example.com');
      expect(creds?.is_admin).toBe(true);
      expect(await verifyPassword(password, creds!.password_hash)).toBe(true);
    } finally {
      await store.close();
    }
    const listed = runCli(['users', 'list', '--json', '--data-dir', dir]);
    expect(listed.status).toBe(0);
    expect(JSON.parse(listed.stdout)[0]).toMatchObject({ email: 'Boss@Example.com', is_admin: true });
    expect(listed.stdout).not.toContain(password);
    expect(listed.stdout).not.toContain('scrypt');
  });

  it('refuses a taken email, a bad email and an unknown plan with a clear message', () => {
    const dup = runCli(['users', 'create', '--email', 'boss@example.com', '--data-dir', dir]);
    expect(dup.status).not.toBe(0);
    expect(dup.stderr).toMatch(/already exists/);
    expect(runCli(['users', 'create', '--email', 'not-an-email', '--data-dir', dir]).stderr).toMatch(/email must be/);
    expect(runCli(['users', 'create', '--email', 'x@example.com', '--plan', 'gold', '--data-dir', dir]).stderr).toMatch(/plan "gold"/);
  });

  it('creates the demo operator only on a store without accounts', async () => {
    const store = await openStore({ sqliteFile: ':memory:' });
    try {
      const first = await createDemoOperator(store);
      expect(first?.email).toBe(DEMO_OPERATOR_EMAIL);
      const creds = await store.accounts.credentialsByEmail(DEMO_OPERATOR_EMAIL);
      expect(creds?.is_admin).toBe(true);
      expect(creds?.plan).toBe('demo');
      expect(await verifyPassword(first!.password, creds!.password_hash)).toBe(true);
      expect(await createDemoOperator(store)).toBeUndefined();
    } finally {
      await store.close();
    }
  });
});
