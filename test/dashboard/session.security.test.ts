import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/index.js';
import { engines } from '../helpers/engines.js';
import { DashboardClient, dashboardApp } from './client.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

for (const engine of engines()) {
  describe(`dashboard security (${engine.name})`, () => {
    let store: Store;
    let app: Awaited<ReturnType<typeof dashboardApp>>;
    let logs = '';
    let operator: DashboardClient;
    let user: DashboardClient;
    const PASSWORD = 'correct horse battery';

    beforeAll(async () => {
      store = await engine.open();
      const sink = new Writable({
        write(chunk, _enc, cb) {
          logs += String(chunk);
          cb();
        },
      });
      app = await dashboardApp(store, { loggerInstance: pino({ level: 'trace' }, sink), dashboard: { lockMs: 1500, signInLimit: { prefix: `tb:test:${Math.random()}`, failures: 12 } } });
      operator = new DashboardClient(app);
      expect((await operator.signUp('op@example.com')).statusCode).toBe(201);
      user = new DashboardClient(app);
      expect((await user.signUp('user@example.com')).statusCode).toBe(201);
    });
    afterAll(async () => {
      await app.close();
      await store.close();
    });

    it('sets the session cookie signed, httpOnly, SameSite=Strict, on /dashboard only', async () => {
      const c = new DashboardClient(app);
      const res = await c.signIn('user@example.com');
      const cookie = (res.cookies as { name: string; httpOnly?: boolean; sameSite?: string; path?: string; secure?: boolean; value: string }[]).find((x) => x.name === 'tb_session');
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/dashboard' });
      expect(cookie?.value).toMatch(/\.[A-Za-z0-9+/_-]+$/); // value.signature
      // a forged (unsigned) value opens nothing
      const raw = cookie!.value.slice(0, cookie!.value.lastIndexOf('.'));
      expect((await app.inject({ method: 'GET', url: '/dashboard/api/keys', headers: { cookie: `tb_session=${raw}` } })).statusCode).toBe(401);
    });

    it('marks cookies Secure when the public URL is https', async () => {
      const secureApp = await dashboardApp(store, { publicUrl: 'https://md.example.com' });
      try {
        const c = new DashboardClient(secureApp);
        const res = await c.signIn('user@example.com');
        expect(res.statusCode).toBe(200);
        const set = ([] as string[]).concat(res.headers['set-cookie'] as string | string[]);
        for (const line of set) expect(line).toMatch(/;\s*Secure/i);
      } finally {
        await secureApp.close();
      }
    });

    it('refuses every state-changing request without the CSRF token (403), and with a wrong one', async () => {
      const c = new DashboardClient(app);
      await c.session();
      const noToken = await c.request('POST', '/dashboard/api/login', { email: 'user@example.com', password: PASSWORD }, { csrf: false });
      expect(noToken.statusCode).toBe(403);
      expect(c.data(noToken)).toMatchObject({ code: 'FORBIDDEN' });
      expect(c.data(noToken).message).toMatch(/CSRF/);
      expect((await c.request('POST', '/dashboard/api/signup', { email: 'x@example.com', password: PASSWORD }, { csrf: false })).statusCode).toBe(403);
      await c.signIn('user@example.com');
      expect((await c.request('POST', '/dashboard/api/keys', { label: 'x' }, { csrf: false })).statusCode).toBe(403);
      expect((await c.request('POST', '/dashboard/api/keys', { label: 'x' }, { headers: { 'x-csrf-token': 'forged' }, csrf: false })).statusCode).toBe(403);
      expect((await c.request('POST', '/dashboard/api/logout', undefined, { csrf: false })).statusCode).toBe(403);
      // another browser's token does not fit this browser's secret
      const other = new DashboardClient(app);
      await other.session();
      expect((await c.request('POST', '/dashboard/api/keys', { label: 'x' }, { headers: { 'x-csrf-token': other.csrf! }, csrf: false })).statusCode).toBe(403);
      expect((await c.request('POST', '/dashboard/api/keys', { label: 'x' })).statusCode).toBe(201);
    });

    it('locks an account for a while after 5 wrong passwords, even for the right one', async () => {
      const c = new DashboardClient(app);
      await c.signUp('victim@example.com');
      const a = new DashboardClient(app);
      for (let i = 1; i <= 4; i++) expect((await a.signIn('victim@example.com', 'wrong password!')).statusCode).toBe(401);
      const fifth = await a.signIn('victim@example.com', 'wrong password!');
      expect(fifth.statusCode).toBe(429);
      expect(a.data(fifth).code).toBe('ACCOUNT_LOCKED');
      const right = await a.signIn('victim@example.com');
      expect(right.statusCode).toBe(429);
      expect(Number(right.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      await sleep(1600);
      expect((await a.signIn('victim@example.com')).statusCode).toBe(200);
    });

    it('limits failed sign-ins per address across accounts', async () => {
      const limited = await dashboardApp(store, { dashboard: { signInLimit: { prefix: `tb:test:${Math.random()}`, failures: 3 } } });
      try {
        const c = new DashboardClient(limited);
        for (const email of ['a@example.com', 'b@example.com', 'c@example.com']) expect((await c.signIn(email, 'nope nope nope')).statusCode).toBe(401);
        const res = await c.signIn('user@example.com');
        expect(res.statusCode).toBe(429);
        expect(c.data(res).code).toBe('RATE_LIMITED');
      } finally {
        await limited.close();
      }
    });

    it('answers 403 to a non-admin on every operator endpoint, 401 without a session, and no key opens the dashboard', async () => {
      const urls: ['GET' | 'POST' | 'PATCH' | 'DELETE', string, unknown?][] = [
        ['GET', '/dashboard/api/admin/accounts'],
        ['POST', '/dashboard/api/admin/accounts', { email: 'z@example.com', password: PASSWORD }],
        ['PATCH', '/dashboard/api/admin/accounts/acct_000000000000', { plan: 'free' }],
        ['POST', '/dashboard/api/admin/invitations', {}],
        ['GET', '/dashboard/api/admin/keys'],
        ['DELETE', '/dashboard/api/admin/keys/key_000000000000'],
        ['GET', '/dashboard/api/admin/status'],
      ];
      for (const [method, url, body] of urls) {
        const res = await user.request(method, url, body);
        expect(res.statusCode, `${method} ${url}`).toBe(403);
        expect((await new DashboardClient(app).request(method, url, body, { csrf: false })).statusCode).not.toBe(200);
        expect((await operator.request(method, url, body)).statusCode, `${method} ${url} as operator`).not.toBe(403);
      }
      const { key } = await store.keys.create({ plan: 'demo' });
      for (const headers of [{ 'x-api-key': key }, { authorization: `Bearer ${key}` }]) {
        expect((await app.inject({ method: 'GET', url: '/dashboard/api/keys', headers })).statusCode).toBe(401);
      }
      expect((await app.inject({ method: 'GET', url: `/dashboard/api/keys?apiKey=${key}` })).statusCode).toBe(401);
      // and the session cookie is no API key
      const rest = await app.inject({ method: 'GET', url: '/v1/marketstatus/now', headers: { cookie: `tb_session=${user.cookies.get('tb_session')}` } });
      expect(rest.statusCode).toBe(401);
    });

    it('stores a label with markup as text and answers JSON only; refuses markup in emails', async () => {
      const created = await user.request('POST', '/dashboard/api/keys', { label: '<img src=x onerror=alert(1)>' });
      expect(created.statusCode).toBe(201);
      expect(created.headers['content-type']).toMatch(/^application\/json/);
      expect(created.headers['x-content-type-options']).toBe('nosniff');
      expect(user.data(created).results.label).toBe('<img src=x onerror=alert(1)>');
      const bad = await new DashboardClient(app).signUp('"><script>alert(1)</script>@example.com');
      expect(bad.statusCode).toBe(400);
    });

    it('never sends a secret again after creation, nor logs it or the password', async () => {
      const created = await user.request('POST', '/dashboard/api/keys', { label: 'once' });
      const { key } = user.data(created);
      await app.inject({ method: 'GET', url: `/v1/marketstatus/now?apiKey=${key}` });
      const later = [
        await user.request('GET', '/dashboard/api/keys'),
        await user.request('GET', '/dashboard/api/usage'),
        await user.request('GET', '/dashboard/api/session'),
        await operator.request('GET', '/dashboard/api/admin/keys'),
        await operator.request('GET', '/dashboard/api/admin/accounts'),
      ];
      for (const res of later) {
        expect(res.statusCode).toBe(200);
        expect(res.body).not.toContain(key);
        expect(res.body).not.toContain(key.slice(7));
        expect(res.body).not.toMatch(/scrypt\$/);
      }
      expect(logs.length).toBeGreaterThan(0);
      expect(logs).not.toContain(key);
      expect(logs).not.toContain(PASSWORD);
      expect(logs).not.toContain(user.cookies.get('tb_session'));
    });

    it('ends sessions when they expire', async () => {
      const short = await dashboardApp(store, { dashboard: { sessionMs: 2000 } });
      try {
        const c = new DashboardClient(short);
        expect((await c.signIn('user@example.com')).statusCode).toBe(200);
        expect((await c.request('GET', '/dashboard/api/keys')).statusCode).toBe(200);
        await sleep(2100);
        expect((await c.request('GET', '/dashboard/api/keys')).statusCode).toBe(401);
      } finally {
        await short.close();
      }
    });

    it('lets the operator disable an account: its sessions end and its keys stop working', async () => {
      const c = new DashboardClient(app);
      const acct = c.data(await c.signUp('leaver@example.com')).account;
      const { key } = c.data(await c.request('POST', '/dashboard/api/keys', { label: 'k' }));
      const res = await operator.request('PATCH', `/dashboard/api/admin/accounts/${acct.id}`, { disabled: true });
      expect(res.statusCode).toBe(200);
      expect(operator.data(res).account.disabled_utc).toBeDefined();
      expect((await c.request('GET', '/dashboard/api/keys')).statusCode).toBe(401);
      expect((await c.signIn('leaver@example.com')).statusCode).toBe(401);
      expect((await app.inject({ method: 'GET', url: '/v1/marketstatus/now', headers: { 'x-api-key': key } })).statusCode).toBe(401);
    });
  });
}
