import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountExistsError } from '../../src/store/repos/accounts.js';
import type { Store } from '../../src/store/index.js';
import { engines } from '../helpers/engines.js';

for (const engine of engines()) {
  describe(`accounts, sessions and account keys (${engine.name})`, () => {
    let store: Store;
    beforeAll(async () => {
      store = await engine.open();
    });
    afterAll(async () => {
      await store.close();
    });

    it('makes the first account admin, later ones not, and refuses an email that differs only in case', async () => {
      const first = await store.accounts.create({ email: 'Ann@Example.com', password_hash: 'h1', plan: 'free', firstIsAdmin: true });
      const second = await store.accounts.create({ email: 'bob@example.com', password_hash: 'h2', plan: 'free', firstIsAdmin: true });
      expect(first.is_admin).toBe(true);
      expect(second.is_admin).toBe(false);
      await expect(store.accounts.create({ email: 'ann@example.COM', password_hash: 'h3', plan: 'free' })).rejects.toBeInstanceOf(AccountExistsError);
      const creds = await store.accounts.credentialsByEmail('ANN@example.com');
      expect(creds?.email).toBe('Ann@Example.com');
      expect(creds?.password_hash).toBe('h1');
      expect(Object.keys((await store.accounts.list())[0]!)).not.toContain('password_hash');
    });

    it('locks an account after the given number of failures and clears on success', async () => {
      const a = await store.accounts.create({ email: 'lock@example.com', password_hash: 'h', plan: 'free' });
      const until = new Date(Date.now() + 60_000).toISOString();
      for (let i = 1; i <= 4; i++) expect(await store.accounts.recordFailedLogin(a.id, 5, until)).toBe(i);
      expect((await store.accounts.credentialsByEmail('lock@example.com'))?.locked_until_utc).toBeUndefined();
      await store.accounts.recordFailedLogin(a.id, 5, until);
      expect((await store.accounts.credentialsByEmail('lock@example.com'))?.locked_until_utc).toBe(until);
      await store.accounts.clearFailedLogins(a.id);
      const c = await store.accounts.credentialsByEmail('lock@example.com');
      expect(c?.locked_until_utc).toBeUndefined();
      expect(c?.failed_logins).toBe(0);
    });

    it('sets plan and disabled state', async () => {
      const a = await store.accounts.create({ email: 'plan@example.com', password_hash: 'h', plan: 'free' });
      await store.accounts.setPlan(a.id, 'starter');
      await store.accounts.setDisabled(a.id, true);
      const got = await store.accounts.get(a.id);
      expect(got?.plan).toBe('starter');
      expect(got?.disabled_utc).toBeDefined();
      await store.accounts.setDisabled(a.id, false);
      expect((await store.accounts.get(a.id))?.disabled_utc).toBeUndefined();
    });

    it('uses an invitation once and never after it expires', async () => {
      const now = new Date().toISOString();
      await store.accounts.createInvitation('t1', { email: 'inv@example.com', plan: 'starter', created_by: 'acct_x', expires_utc: new Date(Date.now() + 60_000).toISOString() });
      await store.accounts.createInvitation('t2', { plan: 'free', created_by: 'acct_x', expires_utc: new Date(Date.now() - 60_000).toISOString() });
      const inv = await store.accounts.useInvitation('t1', now);
      expect(inv).toMatchObject({ email: 'inv@example.com', plan: 'starter' });
      expect(await store.accounts.useInvitation('t1', now)).toBeUndefined();
      expect(await store.accounts.useInvitation('t2', now)).toBeUndefined();
      expect(await store.accounts.useInvitation('nope', now)).toBeUndefined();
    });

    it('finds sessions until they expire, and deletes them per account', async () => {
      const a = await store.accounts.create({ email: 'sess@example.com', password_hash: 'h', plan: 'free' });
      const t = Date.now();
      await store.sessions.create('s1', a.id, new Date(t + 1000).toISOString());
      await store.sessions.create('s2', a.id, new Date(t + 1000).toISOString());
      expect((await store.sessions.find('s1', new Date(t).toISOString()))?.account_id).toBe(a.id);
      expect(await store.sessions.find('s1', new Date(t + 1000).toISOString())).toBeUndefined();
      await store.sessions.delete('s1');
      expect(await store.sessions.find('s1', new Date(t).toISOString())).toBeUndefined();
      expect(await store.sessions.deleteForAccount(a.id)).toBe(1);
    });

    it('keeps keys without an owner valid, lists an account\'s keys apart, hides explorer tokens and sums usage per account', async () => {
      const a = await store.accounts.create({ email: 'keys@example.com', password_hash: 'h', plan: 'starter' });
      const cli = await store.keys.create({ plan: 'free', label: 'cli' });
      const own = await store.keys.create({ plan: 'starter', label: 'mine', account_id: a.id });
      const tok = await store.keys.create({ plan: 'starter', account_id: a.id, kind: 'explorer', expires_utc: new Date(Date.now() - 1000).toISOString() });
      expect((await store.keys.findByKey(cli.key))?.account_id).toBeUndefined();
      expect((await store.keys.findByKey(tok.key))?.kind).toBe('explorer');
      expect((await store.keys.list({ account_id: a.id })).map((k) => k.id)).toEqual([own.record.id]);
      expect((await store.keys.list()).map((k) => k.id)).toContain(cli.record.id);
      expect((await store.keys.list()).map((k) => k.id)).not.toContain(tok.record.id);
      const day = new Date().toISOString().slice(0, 10);
      await store.usage.add([
        { key_id: own.record.id, day, family: '/v2/aggs', requests: 3, errors: 0 },
        { key_id: tok.record.id, day, family: '/v2/aggs', requests: 2, errors: 1 },
        { key_id: cli.record.id, day, family: '/v2/aggs', requests: 7, errors: 0 },
      ]);
      expect(await store.usage.forAccount(a.id, day)).toEqual([{ day, family: '/v2/aggs', requests: 5, errors: 1 }]);
      expect((await store.usage.lastDays()).get(own.record.id)).toBe(day);
      expect(await store.keys.deleteExpiredTokens(a.id, new Date().toISOString())).toBe(1);
      expect(await store.keys.setPlanForAccount(a.id, 'developer')).toBe(1);
      expect((await store.keys.get(own.record.id))?.plan).toBe('developer');
      expect(await store.keys.revokeForAccount(a.id)).toBe(1);
      expect((await store.keys.get(cli.record.id))?.revoked_utc).toBeUndefined();
    });
  });
}
