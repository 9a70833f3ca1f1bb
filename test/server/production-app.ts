import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import type { EnvelopeMode, ServerContext } from '../../src/server/context.js';
import type { ProductionOptions } from '../../src/server/production.js';
import type { Store } from '../../src/store/index.js';

/** An app with production options of the test's choosing, and keys made on any plan. */
export interface ProductionTestApp {
  app: FastifyInstance & { ctx: ServerContext };
  /** Creates a key on a plan and returns it. */
  key(plan: string, extra?: { label?: string; expires_utc?: string }): Promise<string>;
  get(url: string, key?: string, headers?: Record<string, string>): Promise<{ status: number; body: any; headers: Record<string, unknown>; raw: string }>;
  /** The inner body, whatever the envelope. */
  data(res: { body: any }): any;
  close(): Promise<void>;
}

export async function productionApp(
  store: Store,
  opts: { envelope?: EnvelopeMode; now?: () => number; production?: ProductionOptions } = {},
): Promise<ProductionTestApp> {
  const envelope = opts.envelope ?? 'wrapped';
  const app = await buildApp({ store, config: { envelope }, now: opts.now, production: opts.production });
  return {
    app,
    async key(plan, extra = {}) {
      return (await store.keys.create({ plan, ...extra })).key;
    },
    async get(url, key, headers = {}) {
      const res = await app.inject({ method: 'GET', url, headers: { ...(key ? { 'x-api-key': key } : {}), ...headers } });
      let body: unknown;
      try {
        body = res.json();
      } catch {
        body = res.body;
      }
      return { status: res.statusCode, body, headers: res.headers, raw: res.body };
    },
    data(res) {
      return envelope === 'wrapped' ? res.body.data : res.body;
    },
    close: () => app.close(),
  };
}
