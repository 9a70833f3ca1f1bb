// Takes the dashboard screenshots of docs/DASHBOARD.md (1280x800, headless Chromium) over the
// demo data: `node --import tsx test/e2e/docs-screenshots.ts` after `npm run build`. Not a test:
// a tool to run when the look changes, then look at every image before committing it.
//
// The usage chart would show one bar on a fresh server, so the script adds the counters of a few
// weeks of requests of its own key to the store (as the usage recorder would have written them).

import { join } from 'node:path';
import { DEMO_AS_OF, signUp, startDashboard } from './harness.js';

const OUT = join(process.cwd(), 'docs', 'images');
const DAY = 86_400_000;

const d = await startDashboard();
try {
  const ctx = await d.context();
  const signIn = await ctx.newPage();
  await signIn.goto(`${d.base}/dashboard/`);
  await signIn.getByTestId('login-email').waitFor();
  await signIn.screenshot({ path: join(OUT, 'dashboard-sign-in.png') });
  await signIn.close();

  const page = await signUp(ctx, d.base, 'ada@example.com');
  await page.goto(`${d.base}/dashboard/#/keys`);
  const createKey = async (label: string) => {
    await page.getByTestId('key-label').fill(label);
    await page.getByTestId('key-create').click();
    await page.getByTestId('key-row').filter({ hasText: label }).waitFor();
  };
  await createKey('laptop');
  await createKey('research notebook');
  const keys = await d.store.keys.list({});
  const families = ['/v2/aggs/ticker/:ticker/range/:multiplier/:timespan/:from/:to', '/v3/reference/tickers', '/v2/aggs/ticker/:ticker/prev', '/v3/reference/tickers/:ticker', '/v2/snapshot/locale/us/markets/stocks/tickers'];
  const increments = [];
  for (let i = 0; i < 28; i++) {
    const day = new Date(Date.now() - i * DAY).toISOString().slice(0, 10);
    const weekday = ![0, 6].includes(new Date(day).getUTCDay());
    for (const [k, key] of keys.entries()) {
      for (const [f, family] of families.entries()) {
        const n = Math.round((weekday ? 1 : 0.25) * (400 + 300 * Math.sin(i / 3 + k)) / (f + 1) / (k + 1));
        if (n > 0) increments.push({ key_id: key.id, day, family, requests: n, errors: f === 0 ? Math.round(n / 50) : 0 });
      }
    }
  }
  await d.store.usage.add(increments);
  // the third key's secret stays on the page, as it does once after creation
  await createKey('backtest server');
  await page.getByTestId('key-label').fill('');
  await page.locator('h1').click(); // the focus ring off the label field
  await page.screenshot({ path: join(OUT, 'dashboard-keys.png') });

  await page.goto(`${d.base}/dashboard/#/overview`);
  await page.getByTestId('overview-today').filter({ hasText: /\d/ }).waitFor();
  await page.screenshot({ path: join(OUT, 'dashboard-overview.png') });

  await page.goto(`${d.base}/dashboard/#/usage`);
  await page.getByTestId('usage-chart').waitFor();
  await page.screenshot({ path: join(OUT, 'dashboard-usage.png') });

  await page.goto(`${d.base}/dashboard/#/quickstart`);
  await page.getByTestId('snippet').nth(3).waitFor();
  await page.screenshot({ path: join(OUT, 'dashboard-quickstart.png') });

  await page.goto(`${d.base}/dashboard/#/explorer`);
  await page.getByTestId('ticker-search').fill('AAPL');
  await page.getByTestId('ticker-option').first().click();
  await page.getByTestId('chart-state').filter({ hasText: /\d+ bars/ }).waitFor({ timeout: 15_000 });
  await page.getByTestId('timespan-5m').click();
  await page.getByTestId('chart-state').filter({ hasText: /\d+ bars/ }).waitFor({ timeout: 15_000 });
  const box = (await page.getByTestId('chart').boundingBox())!;
  await page.mouse.move(box.x + box.width * 0.55, box.y + box.height * 0.35);
  await page.waitForTimeout(200);
  await page.evaluate(() => window.scrollTo(0, 90));
  await page.screenshot({ path: join(OUT, 'dashboard-explorer.png') });

  await page.goto(`${d.base}/dashboard/#/operator`);
  await page.getByTestId('server-status').waitFor();
  await page.getByTestId('server-usage').getByTestId('usage-chart').waitFor();
  await page.screenshot({ path: join(OUT, 'dashboard-operator.png') });
  d.assertNoPageErrors();
  console.log(`screenshots written to ${OUT} (demo data as of ${DEMO_AS_OF})`);
} finally {
  await d.close();
}
