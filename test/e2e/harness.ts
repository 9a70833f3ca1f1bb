import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { buildApp } from '../../src/app.js';
import { DEMO_STEPS } from '../../src/demo/load.js';
import { DEFAULT_ASSETS_DIR } from '../../src/routes/dashboard/static.js';
import { openStore, type Store } from '../../src/store/index.js';

// What the dashboard's browser tests share: a server over the demo's reference, market and
// branding data on a random port, Debian's Chromium driven by playwright-core, a watch on every
// page's console errors and uncaught exceptions (each test ends by asserting there were none), and
// the axe-core accessibility audit.

export const CHROMIUM = '/usr/bin/chromium';
export const haveChromium = existsSync(CHROMIUM);
export const PASSWORD = 'correct horse battery';
export const SHOTS = join(process.cwd(), 'test-output', 'screenshots');
/** The day the demo data ends on. */
export const DEMO_AS_OF = '2026-11-20';

export function skipReason(file: string): void {
  if (!haveChromium) console.log(`${file}: skipped, ${CHROMIUM} is not installed (apt-get install chromium)`);
}

export interface Dashboard {
  base: string;
  store: Store;
  browser: Browser;
  /** A new browser context (1280x800) whose pages are watched for errors. */
  context(): Promise<BrowserContext>;
  /** Fails the test with every console error and uncaught exception seen since the last check, then forgets them. */
  assertNoPageErrors(): void;
  /** Lets console messages matching `pattern` pass until the next check (a test that provokes a 4xx on purpose). */
  allowConsole(pattern: RegExp): void;
  close(): Promise<void>;
}

export async function startDashboard(): Promise<Dashboard> {
  if (!existsSync(join(DEFAULT_ASSETS_DIR, 'index.html'))) {
    execFileSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--config', 'src/web/vite.config.ts'], { stdio: 'inherit' });
  }
  mkdirSync(SHOTS, { recursive: true });
  const dir = mkdtempSync(join(tmpdir(), 'tb-e2e-'));
  const store = await openStore({ sqliteFile: join(dir, 'tickerbase.db') });
  const brandingDir = join(dir, 'branding');
  for (const step of DEMO_STEPS.slice(0, 3)) await step.run(store, { scale: 1, asOf: DEMO_AS_OF, log: () => {}, brandingDir });
  const app = await buildApp({ store, config: { envelope: 'wrapped', brandingDir }, dashboard: { signup: 'open', signInLimit: { prefix: `tb:e2e:${Math.random()}` } } });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
  let seen: string[] = [];
  let allowed: RegExp[] = [];
  const contexts: BrowserContext[] = [];
  return {
    base,
    store,
    browser,
    async context() {
      const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      ctx.setDefaultTimeout(10_000); // a missing element fails its test, not the whole file's time
      ctx.on('console', (m) => {
        if (m.type() === 'error' && !allowed.some((re) => re.test(m.text()))) seen.push(`console error on ${m.page()?.url() ?? '?'}: ${m.text()}`);
      });
      ctx.on('weberror', (e) => seen.push(`uncaught on ${e.page()?.url() ?? '?'}: ${e.error().message}`));
      contexts.push(ctx);
      return ctx;
    },
    assertNoPageErrors() {
      const errors = seen;
      seen = [];
      allowed = [];
      if (errors.length) throw new Error(`console errors and uncaught exceptions in the pages:\n${errors.join('\n')}`);
    },
    allowConsole(pattern) {
      allowed.push(pattern);
    },
    async close() {
      for (const c of contexts) await c.close().catch(() => {});
      await browser.close();
      await app.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function signUp(ctx: BrowserContext, base: string, email: string): Promise<Page> {
  const page = await ctx.newPage();
  await page.goto(`${base}/dashboard/#/signup`);
  await page.getByTestId('signup-email').fill(email);
  await page.getByTestId('signup-password').fill(PASSWORD);
  await page.getByTestId('signup-submit').click();
  await page.getByTestId('logout').waitFor();
  return page;
}

export async function signIn(page: Page, email: string): Promise<void> {
  await page.getByTestId('login-email').fill(email);
  await page.getByTestId('login-password').fill(PASSWORD);
  await page.getByTestId('login-submit').click();
  await page.getByTestId('logout').waitFor();
}

const AXE = readFileSync(join(process.cwd(), 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');

/** The serious and critical violations axe-core finds on the page as it is now, one line each. */
export async function accessibilityProblems(page: Page): Promise<string[]> {
  // evaluated through the DevTools protocol: the page's CSP (script-src 'self') refuses inline scripts
  await page.evaluate(AXE);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[] }> } }).axe;
    const r = await axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.impact} ${v.id}: ${v.help} (${v.targets.join(', ')})`);
}
