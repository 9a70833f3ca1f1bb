import { describe, expect, it } from 'vitest';
import { Type } from '@sinclair/typebox';
import { recordImportRows } from '../../src/ingest/metrics.js';
import { getRoute } from '../../src/server/route.js';
import { engines } from '../helpers/engines.js';
import { FIXTURE_TICKERS } from '../helpers/reference-fixture.js';
import { productionApp } from './production-app.js';
import { useStoreAndApps } from '../helpers/app-fixture.js';
import { sqlOf } from '../../src/store/inspect.js';

/** The value of one sample line of the exposition, or 0 when absent. */
function sample(text: string, name: string, labels: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${name}{${labels}}`));
  return line ? Number(line.split(' ').pop()) : 0;
}

for (const engine of engines()) {
  describe(`/metrics (${engine.name})`, () => {
    const { apps: [t] } = useStoreAndApps(
      engine,
      (store) => store.reference.upsertTickers(FIXTURE_TICKERS),
      async (store) => {
        const started = await productionApp(store, { production: { usage: false } });
        getRoute(started.app, started.app.ctx, {
          url: '/test/broken-sql',
          operationId: 'TestBrokenSql',
          summary: 'a query the engine refuses',
          tags: ['Test'],
          dataset: 'reference',
          response: Type.Object({}),
          handler: async () => sqlOf(started.app.ctx.store).all('SELECT * FROM no_such_table'),
        });
        return started;
      },
    );

    it('counts requests by route template and status, and times them', async () => {
      const key = await t.key('demo');
      const before = (await t.get('/metrics')).raw;
      await t.get('/v3/reference/tickers/AAPL', key);
      await t.get('/v3/reference/tickers/MSFT', key);
      await t.get('/v3/reference/tickers/NOPE', key);
      await t.get('/v3/reference/tickers/AAPL');
      const res = await t.get('/metrics');
      expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
      const after = res.raw;
      const delta = (name: string, labels: string) => sample(after, name, labels) - sample(before, name, labels);
      const route = 'route="/v3/reference/tickers/:ticker",method="GET"';
      expect(delta('tickerbase_http_requests_total', `${route},status="200"`)).toBe(2);
      expect(delta('tickerbase_http_requests_total', `${route},status="404"`)).toBe(1);
      expect(delta('tickerbase_http_requests_total', `${route},status="401"`)).toBe(1);
      expect(delta('tickerbase_http_request_duration_seconds_count', route)).toBe(4);
      expect(after).toContain(`tickerbase_http_request_duration_seconds_bucket{le="0.005",${route}}`);
      // unknown paths share one label, so scanners cannot blow up the series count
      await t.get('/no/such/path/123');
      expect((await t.get('/metrics')).raw).toContain('route="(no route)"');
    });

    it('counts rate-limit rejections by plan', async () => {
      const key = await t.key('free');
      const before = sample((await t.get('/metrics')).raw, 'tickerbase_rate_limit_rejections_total', 'plan="free"');
      for (let i = 0; i < 7; i++) await t.get('/v3/reference/tickers/AAPL', key);
      expect(sample((await t.get('/metrics')).raw, 'tickerbase_rate_limit_rejections_total', 'plan="free"') - before).toBe(2);
    });

    it('counts store errors raised by the engine', async () => {
      const before = sample((await t.get('/metrics')).raw, 'tickerbase_store_errors_total', 'kind="other"');
      const broken = await t.get('/test/broken-sql', await t.key('demo'));
      expect(broken.status).toBe(500);
      // the client learns nothing of the engine, the SQL or the stack
      expect(JSON.stringify(broken.body)).not.toMatch(/no_such_table|SELECT|SqliteError|relation|at .*\.js/);
      expect(JSON.stringify(broken.body)).toContain('Internal server error');
      expect(sample((await t.get('/metrics')).raw, 'tickerbase_store_errors_total', 'kind="other"') - before).toBe(1);
    });

    it('exposes the import row counter that importers bump', async () => {
      const before = sample((await t.get('/metrics')).raw, 'tickerbase_import_rows_total', 'dataset="trades"');
      recordImportRows('trades', 1234);
      expect(sample((await t.get('/metrics')).raw, 'tickerbase_import_rows_total', 'dataset="trades"') - before).toBe(1234);
    });
  });
}
