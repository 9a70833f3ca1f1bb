import type { FastifyInstance } from 'fastify';
import { buildApp, type AppOptions } from '../../src/app.js';
import type { EnvelopeMode, ServerContext } from '../../src/server/context.js';
import type { Store } from '../../src/store/index.js';

export interface TestApp {
  app: FastifyInstance & { ctx: ServerContext };
  store: Store;
  key: string;
  /** GET with the key in the X-API-Key header; returns status, parsed body and headers. */
  get(url: string, headers?: Record<string, string>): Promise<{ status: number; body: any; headers: Record<string, unknown> }>;
  /** The inner body, whatever the envelope. */
  data(res: { body: any }): any;
  close(): Promise<void>;
}

export async function startTestApp(
  store: Store,
  opts: { envelope?: EnvelopeMode; publicUrl?: string; plan?: string } & Partial<AppOptions> = {},
): Promise<TestApp> {
  const envelope = opts.envelope ?? 'wrapped';
  const app = await buildApp({ store, config: { envelope, publicUrl: opts.publicUrl, brandingDir: opts.config?.brandingDir, riskFreeRate: opts.config?.riskFreeRate, responseCacheEntries: opts.config?.responseCacheEntries, responseCacheBytes: opts.config?.responseCacheBytes, tickListBytes: opts.config?.tickListBytes }, now: opts.now, guards: opts.guards, loggerInstance: opts.loggerInstance });
  const { key } = await store.keys.create({ plan: opts.plan ?? 'demo', label: 'test' });
  return {
    app,
    store,
    key,
    async get(url, headers = {}) {
      const res = await app.inject({ method: 'GET', url, headers: { 'x-api-key': key, ...headers } });
      let body: unknown;
      try {
        body = res.json();
      } catch {
        body = res.body;
      }
      return { status: res.statusCode, body, headers: res.headers };
    },
    data(res) {
      return envelope === 'wrapped' ? res.body.data : res.body;
    },
    async close() {
      await app.close();
    },
  };
}

/** Follows next_url links (as a client would) and returns every page's inner body. */
export async function walkPages(t: TestApp, firstUrl: string, between?: (page: number) => Promise<void>): Promise<any[]> {
  const pages: any[] = [];
  let url: string | undefined = firstUrl;
  while (url) {
    const res = await t.get(url);
    if (res.status !== 200) throw new Error(`page ${pages.length + 1} of ${firstUrl}: HTTP ${res.status} ${JSON.stringify(res.body)}`);
    const data = t.data(res);
    pages.push(data);
    if (pages.length > 10_000) throw new Error('too many pages');
    url = data.next_url ? new URL(data.next_url).pathname + new URL(data.next_url).search : undefined;
    if (url && between) await between(pages.length);
  }
  return pages;
}

/**
 * The server in upstream's native envelope on a loopback port, for the official SDK, with a
 * demo-plan key; close() stops it and closes the store.
 */
export async function listenNative(
  store: Store,
  opts: { now?: () => number; riskFreeRate?: number } = {},
): Promise<{ base: string; key: string; close(): Promise<void> }> {
  const { key } = await store.keys.create({ plan: 'demo' });
  const app = await buildApp({ store, config: { envelope: 'native', riskFreeRate: opts.riskFreeRate }, now: opts.now });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    base,
    key,
    async close() {
      await app.close();
      await store.close();
    },
  };
}
