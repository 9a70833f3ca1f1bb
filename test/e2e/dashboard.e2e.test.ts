import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { haveChromium, PASSWORD, SHOTS, signUp, skipReason, startDashboard, type Dashboard } from './harness.js';

// The dashboard's main flows in a real browser: accounts, keys, usage, quickstart, explorer,
// operator pages, CSRF and the sign-in lock. No page may log a console error or throw.

skipReason('dashboard e2e');

describe.skipIf(!haveChromium)('dashboard end to end (headless Chromium)', () => {
  let d: Dashboard;
  let base: string;
  let operator: BrowserContext;
  let user: BrowserContext;
  let userPage: Page;
  let secret = '';

  const rest = (path: string, key: string) => fetch(`${base}${path}`, { headers: { authorization: `Bearer ${key}` } });
  const shot = (page: Page, name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });

  beforeAll(async () => {
    d = await startDashboard();
    base = d.base;
    operator = await d.context();
    user = await d.context();
  }, 240_000);

  afterEach(() => d.assertNoPageErrors());
  afterAll(async () => d?.close());

  it('signs up the first account as operator and a second as a user; signs out and in again', async () => {
    const op = await signUp(operator, base, 'operator@example.com');
    await expect(op.getByTestId('nav-operator').count()).resolves.toBe(1);
    userPage = await signUp(user, base, 'user@example.com');
    await expect(userPage.getByTestId('nav-operator').count()).resolves.toBe(0);
    await userPage.getByTestId('logout').click();
    await userPage.getByTestId('login-email').fill('user@example.com');
    await userPage.getByTestId('login-password').fill(PASSWORD);
    await userPage.getByTestId('login-submit').click();
    await userPage.getByTestId('logout').waitFor();
    await shot(op, 'operator-signed-in');
  });

  it('creates a key whose secret is shown once and works on the REST API; the label is shown as text', async () => {
    await userPage.goto(`${base}/dashboard/#/keys`);
    await userPage.getByTestId('key-label').fill('laptop <b>bold</b>');
    await userPage.getByTestId('key-create').click();
    secret = (await userPage.getByTestId('key-secret').textContent()) ?? '';
    expect(secret).toMatch(/^tb_[A-Za-z0-9_-]{32}$/);
    const row = userPage.getByTestId('key-row').first();
    await expect(row.textContent()).resolves.toContain('laptop <b>bold</b>');
    await expect(row.locator('b').count()).resolves.toBe(0);
    await expect(row.textContent()).resolves.toContain(secret.slice(0, 7));
    expect(await row.textContent()).not.toContain(secret);
    await shot(userPage, 'keys');
    expect((await rest('/v3/reference/tickers/AAPL', secret)).status).toBe(200);
    // after a reload the secret is gone from the page for good
    await userPage.reload();
    await userPage.getByTestId('key-row').first().waitFor();
    expect(await userPage.content()).not.toContain(secret);
    await expect(userPage.getByTestId('key-secret').count()).resolves.toBe(0);
  });

  it("shows today's requests on the usage chart, by data family, the rate limit and the plan's entitlements", async () => {
    await userPage.goto(`${base}/dashboard/#/usage`);
    const chart = userPage.getByTestId('usage-chart');
    await chart.waitFor();
    expect(Number(await chart.getAttribute('data-today'))).toBeGreaterThanOrEqual(1);
    expect(Number(await userPage.getByTestId('usage-today').textContent())).toBeGreaterThanOrEqual(1);
    // the legend names data families, not route templates
    const legend = (await userPage.getByTestId('usage-legend').textContent()) ?? '';
    expect(legend).toContain('Reference data');
    expect(legend).not.toContain('/v3/');
    await expect(userPage.getByTestId('entitlements').count()).resolves.toBe(1);
    await shot(userPage, 'usage');
  });

  it('fills the quickstart snippets with this server and a key placeholder', async () => {
    await userPage.goto(`${base}/dashboard/#/quickstart`);
    const snippets = userPage.getByTestId('snippet');
    await snippets.first().waitFor();
    const text = (await snippets.allTextContents()).join('\n');
    expect(text).toContain(`RESTClient(api_key="YOUR_KEY", base="${base}/upstream")`);
    expect(text).toContain(`restClient('YOUR_KEY', '${base}/upstream')`);
    expect(text).not.toContain(secret);
    await shot(userPage, 'quickstart');
  });

  it('searches tickers and draws a candlestick chart (the canvas is not blank)', async () => {
    const t0 = Date.now();
    const page = await user.newPage();
    await page.goto(`${base}/dashboard/#/explorer`);
    await page.getByTestId('ticker-search').waitFor();
    console.log(`explorer first load (navigation to a usable search box): ${Date.now() - t0} ms`);
    await page.getByTestId('ticker-search').fill('AAPL');
    const option = page.getByTestId('ticker-option').first();
    await option.waitFor();
    await option.click();
    await page.getByTestId('chart-state').filter({ hasText: /\d+ bars/ }).waitFor({ timeout: 15_000 });
    await page.getByTestId('overview').waitFor();
    await page.getByTestId('prev-close').filter({ hasText: 'Previous close' }).waitFor();
    const painted = await page.getByTestId('chart').evaluate((el) => {
      let coloured = 0;
      for (const canvas of Array.from(el.querySelectorAll('canvas'))) {
        const ctx = canvas.getContext('2d');
        if (!ctx || canvas.width === 0) continue;
        const data = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
        for (let i = 0; i < data.length; i += 4) {
          const [r, g, b, a] = [data[i]!, data[i + 1]!, data[i + 2]!, data[i + 3]!];
          if (a > 0 && (Math.abs(r - g) > 40 || Math.abs(g - b) > 40)) coloured++; // green or red candles
        }
      }
      return coloured;
    });
    expect(painted).toBeGreaterThan(100);
    // the page never holds a user's key: only its own short-lived token goes to the REST API
    expect(await page.content()).not.toContain(secret);
    await shot(page, 'explorer');
    await page.close();
  });

  it('revokes the key after confirmation: the REST API then answers 401', async () => {
    await userPage.goto(`${base}/dashboard/#/keys`);
    const row = userPage.getByTestId('key-row').filter({ hasText: secret.slice(0, 7) });
    await row.getByTestId('key-revoke').click();
    await userPage.getByTestId('confirm').click();
    await row.filter({ hasText: 'revoked' }).waitFor();
    expect((await rest('/v3/reference/tickers/AAPL', secret)).status).toBe(401);
  });

  it('refuses operator pages to a non-admin (403, no link) and shows them to the operator', async () => {
    await expect(userPage.getByTestId('nav-operator').count()).resolves.toBe(0);
    d.allowConsole(/status of 403/); // the refused fetch below
    const status = await userPage.evaluate(async () => (await fetch('/dashboard/api/admin/accounts')).status);
    expect(status).toBe(403);
    const op = await operator.newPage();
    await op.goto(`${base}/dashboard/#/operator`);
    await op.getByTestId('server-status').waitFor();
    // the accounts list arrives by a request of its own, after the server's status
    await op.getByTestId('account-row').nth(1).waitFor();
    await expect(op.getByTestId('account-row').count()).resolves.toBe(2);
    await shot(op, 'operator');
  });

  it('answers 403 to a state-changing request without the CSRF token', async () => {
    d.allowConsole(/status of 403/);
    const status = await userPage.evaluate(async () => (await fetch('/dashboard/api/keys', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"label":"x"}' })).status);
    expect(status).toBe(403);
  });

  it('locks the account after 5 wrong passwords, even for the right one', async () => {
    d.allowConsole(/status of (401|429)/); // the refused sign-ins are the point of this test
    const ctx = await d.context();
    const page = await ctx.newPage();
    await page.goto(`${base}/dashboard/`);
    for (let i = 0; i < 5; i++) {
      await page.getByTestId('login-email').fill('user@example.com');
      await page.getByTestId('login-password').fill(`wrong password ${i}`);
      await page.getByTestId('login-submit').click();
      await page.getByRole('alert').filter({ hasText: i < 4 ? 'wrong email or password' : 'locked' }).waitFor();
    }
    await page.getByTestId('login-password').fill(PASSWORD);
    await page.getByTestId('login-submit').click();
    await page.getByRole('alert').filter({ hasText: 'locked' }).waitFor();
    await expect(page.getByTestId('logout').count()).resolves.toBe(0);
    await shot(page, 'locked');
  });
});
