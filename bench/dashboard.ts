// The dashboard's weight and first load (not a test): gzip size of the built assets, and the time
// headless Chromium takes from navigating to the explorer page to a usable search box, and to a
// drawn chart after picking a ticker, each in a fresh browser context (empty cache). The server
// runs in its own process. Prints the figures and their ratio to the budgets below.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { DEFAULT_ASSETS_DIR } from '../src/routes/dashboard/static.js';
import { startChild } from './lib.js';

const BUDGET_INITIAL_KB = 50; // what the first page needs (entry script and styles)
const BUDGET_TOTAL_KB = 150; // every chunk, the chart library included
const BUDGET_FIRST_LOAD_MS = 1000;
const CHROMIUM = '/usr/bin/chromium';
const RUNS = 5;

if (!existsSync(join(DEFAULT_ASSETS_DIR, 'index.html'))) execFileSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--config', 'src/web/vite.config.ts'], { stdio: 'inherit' });

const assets = join(DEFAULT_ASSETS_DIR, 'assets');
const sizes = readdirSync(assets).map((f) => ({ f, gz: gzipSync(readFileSync(join(assets, f)), { level: 9 }).length }));
const total = sizes.reduce((s, x) => s + x.gz, 0) / 1024;
const initial = sizes.filter((x) => x.f.startsWith('index-')).reduce((s, x) => s + x.gz, 0) / 1024;
for (const x of sizes) console.log(`  ${x.f.padEnd(28)} ${(x.gz / 1024).toFixed(1)} KB gzip`);
console.log(`assets: first page ${initial.toFixed(1)} KB gzip (${(initial / BUDGET_INITIAL_KB).toFixed(2)}x of ${BUDGET_INITIAL_KB} KB), all ${total.toFixed(1)} KB gzip (${(total / BUDGET_TOTAL_KB).toFixed(2)}x of ${BUDGET_TOTAL_KB} KB)`);

if (!existsSync(CHROMIUM)) {
  console.log(`first load: skipped, ${CHROMIUM} is not installed`);
  process.exit(0);
}

const dir = mkdtempSync(join(tmpdir(), 'tb-bench-dashboard-'));
const target = await startChild('bench/targets/dashboard.ts', [dir]);
const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
try {
  const setup = await browser.newContext();
  const page = await setup.newPage();
  await page.goto(`${target.url}/dashboard/#/signup`);
  await page.getByTestId('signup-email').fill('bench@example.com');
  await page.getByTestId('signup-password').fill('bench password 1');
  await page.getByTestId('signup-submit').click();
  await page.getByTestId('logout').waitFor();
  const cookies = await setup.cookies();
  await setup.close();

  const usable: number[] = [];
  const charted: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const ctx = await browser.newContext();
    await ctx.addCookies(cookies);
    const p = await ctx.newPage();
    const t0 = performance.now();
    await p.goto(`${target.url}/dashboard/#/explorer`);
    await p.getByTestId('ticker-search').waitFor();
    usable.push(performance.now() - t0);
    const t1 = performance.now();
    await p.getByTestId('ticker-search').fill('AAPL');
    await p.getByTestId('ticker-option').first().click();
    await p.getByTestId('chart-state').filter({ hasText: /\d+ bars/ }).waitFor({ timeout: 15_000 });
    charted.push(performance.now() - t1);
    await ctx.close();
  }
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  console.log(`explorer first load (navigation to a usable search box, empty cache): median ${med(usable).toFixed(0)} ms of ${RUNS} (${(med(usable) / BUDGET_FIRST_LOAD_MS).toFixed(2)}x of ${BUDGET_FIRST_LOAD_MS} ms); runs ${usable.map((x) => x.toFixed(0)).join(', ')} ms`);
  console.log(`search to drawn chart (type-ahead debounce of 200 ms included): median ${med(charted).toFixed(0)} ms`);
} finally {
  await browser.close();
  await target.stop();
  rmSync(dir, { recursive: true, force: true });
}
