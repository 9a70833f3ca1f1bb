import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_STEPS } from '../../src/demo/load.js';
import { DEFAULT_ASSETS_DIR } from '../../src/routes/dashboard/static.js';
import { buildApp } from '../../src/app.js';
import { openStore, type Store } from '../../src/store/index.js';

// The dashboard in a real browser: Debian's Chromium, headless, driven by playwright-core against
// a server listening on a random port, with the demo's reference, market and branding data.

const CHROMIUM = '/usr/bin/chromium';
const haveChromium = existsSync(CHROMIUM);
if (!haveChromium) console.log(`dashboard e2e tests skipped: ${CHROMIUM} is not installed (apt-get install chromium)`);

const SHOTS = join(process.cwd(), 'test-output', 'screenshots');
const PASSWORD = 'correct horse battery';

describe.skipIf(!haveChromium)('dashboard end to end (headless Chromium)', () => {
  let dir: string;
  let store: Store;
  let app: Awaited<ReturnType<typeof buildApp>>;
  let base: string;
  let browser: Browser;
  let operator: BrowserContext;
  let user: BrowserContext;
  let userPage: Page;
  let secret = '';

  const rest = (path: string, key: string) => fetch(`${base}${path}`, { headers: { authorization: `Bearer ${key}` } });
  const shot = (page: Page, name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });

  async function signUp(ctx: BrowserContext, email: string): Promise<Page> {
    const page = await ctx.newPage();
    await page.goto(`${base}/dashboard/#/signup`);
    await page.getByTestId('signup-email').fill(email);
    await page.getByTestId('signup-password').fill(PASSWORD);
    await shot(page, 'signup');
    await page.getByTestId('signup-submit').click();
    await page.getByTestId('logout').waitFor();
    return page;
  }

  beforeAll(async () => {
    if (!existsSync(join(DEFAULT_ASSETS_DIR, 'index.html'))) {
      execFileSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--config', 'src/web/vite.config.ts'], { stdio: 'inherit' });
    }
    mkdirSync(SHOTS, { recursive: true });
    dir = mkdtempSync(join(tmpdir(), 'tb-e2e-'));
    store = await openStore({ sqliteFile: join(dir, 'tickerbase.db') });
    const brandingDir = join(dir, 'branding');
    for (const step of DEMO_STEPS.slice(0, 3)) await step.run(store, { scale: 1, asOf: '2026-11-20', log: () => {}, brandingDir });
    app = await buildApp({ store, config: { envelope: 'wrapped', brandingDir }, dashboard: { signup: 'open', signInLimit: { prefix: `tb:e2e:${Math.random()}` } } });
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    base = address;
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
    operator = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    user = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await store?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('signs up the first account as operator and a second as a user; signs out and in again', async () => {
    const op = await signUp(operator, 'operator@example.com');
    await expect(op.getByTestId('nav-operator').count()).resolves.toBe(1);
    userPage = await signUp(user, 'user@example.com');
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

  it("shows today's requests on the usage chart, the rate limit and the plan's entitlements", async () => {
    await userPage.goto(`${base}/dashboard/#/usage`);
    const chart = userPage.getByTestId('usage-chart');
    await chart.waitFor();
    expect(Number(await chart.getAttribute('data-today'))).toBeGreaterThanOrEqual(1);
    expect(Number(await userPage.getByTestId('usage-today').textContent())).toBeGreaterThanOrEqual(1);
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
    const status = await userPage.evaluate(async () => (await fetch('/dashboard/api/admin/accounts')).status);
    expect(status).toBe(403);
    const op = await operator.newPage();
    await op.goto(`${base}/dashboard/#/operator`);
    await op.getByTestId('server-status').waitFor();
    await expect(op.getByTestId('account-row').count()).resolves.toBe(2);
    await shot(op, 'operator');
  });

  it('answers 403 to a state-changing request without the CSRF token', async () => {
    const status = await userPage.evaluate(async () => (await fetch('/dashboard/api/keys', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"label":"x"}' })).status);
    expect(status).toBe(403);
  });

  it('locks the account after 5 wrong passwords, even for the right one', async () => {
    const ctx = await browser.newContext();
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
    await ctx.close();
  });
});
