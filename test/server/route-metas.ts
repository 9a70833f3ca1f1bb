import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import type { RequestGuard } from '../../src/server/context.js';
import type { Store } from '../../src/store/index.js';

export interface OperationSample {
  /** OpenAPI path template, e.g. /v3/reference/tickers/{ticker}. */
  path: string;
  /** The same path with every parameter filled with `value`. */
  url: string;
}

/** Every GET path of the app's OpenAPI document, filled with a plausible value per parameter. */
export async function openApiSamples(app: FastifyInstance): Promise<OperationSample[]> {
  const doc = (await app.inject({ url: '/openapi.json' })).json() as { paths: Record<string, Record<string, unknown>> };
  return Object.entries(doc.paths)
    .filter(([, ops]) => ops.get)
    .map(([path]) => ({ path, url: path.replace(/\{[^}]+\}/g, (p) => (/date|from|to/i.test(p) ? '2026-11-18' : 'AAPL')) }));
}

/** The entitlement metadata (dataset and market as resolved for a sample request) of every keyed GET route. */
export async function routeMetas(store: Store): Promise<Map<string, { dataset?: string; market?: string; url: string }>> {
  const seen = new Map<string, { dataset?: string; market?: string; url: string }>();
  const recorder: RequestGuard = async (req, meta) => {
    const market = typeof meta.market === 'function' ? meta.market(req) : meta.market;
    seen.set(meta.url, { dataset: meta.dataset, market, url: meta.url });
  };
  const app = await buildApp({ store, config: { envelope: 'wrapped' }, guards: [recorder], production: { usage: false } });
  const { key } = await store.keys.create({ plan: 'demo', label: 'route-metas' });
  const out = new Map<string, { dataset?: string; market?: string; url: string }>();
  try {
    for (const s of await openApiSamples(app)) {
      seen.clear();
      await app.inject({ url: s.url, headers: { 'x-api-key': key } });
      const m = [...seen.values()][0];
      if (m) out.set(s.path, m);
    }
  } finally {
    await app.close();
  }
  return out;
}
