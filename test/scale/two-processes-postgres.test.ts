import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/index.js';
import { PostgresDriver } from '../../src/store/postgres/driver.js';
import { bulkTickers } from '../helpers/reference-fixture.js';
import { spawnServe, type ServeProcess } from './serve-process.js';

const DATABASE_URL = process.env.DATABASE_URL;
if (!DATABASE_URL) console.log('Two-process PostgreSQL test skipped: DATABASE_URL is not set (CI sets it).');

/** The same database URL with every connection's search_path set to `schema`. */
function inSchema(url: string, schema: string): string {
  const u = new URL(url);
  u.searchParams.set('options', `-c search_path=${schema}`);
  return u.toString();
}

describe.skipIf(!DATABASE_URL)('two server processes over one PostgreSQL', () => {
  const schema = `tb_scale_${randomBytes(5).toString('hex')}`;
  let a: ServeProcess;
  let b: ServeProcess;
  let key: string;
  const N = 237;

  beforeAll(async () => {
    const store = await openStore({ databaseUrl: DATABASE_URL!, schema });
    try {
      await store.reference.upsertTickers(bulkTickers(N, 'S'));
      key = (await store.keys.create({ plan: 'demo', label: 'scale' })).key;
    } finally {
      await store.close();
    }
    const url = inSchema(DATABASE_URL!, schema);
    [a, b] = await Promise.all([spawnServe(['--database-url', url]), spawnServe(['--database-url', url])]);
  });
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    const admin = PostgresDriver.open(DATABASE_URL!, { max: 1 });
    await admin.exec(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).finally(() => admin.close());
  });

  it('a cursor issued by one process is honoured by the other: the walk alternates and sees every ticker once', async () => {
    const servers = [a, b];
    const seen: string[] = [];
    let path: string | undefined = '/v3/reference/tickers?limit=20&ticker.gte=S&ticker.lt=T';
    let page = 0;
    while (path) {
      const server = servers[page % 2]!;
      const res = await fetch(`${server.url}${path}`, { headers: { 'x-api-key': key } });
      expect(res.status, `page ${page} on ${server.url}`).toBe(200);
      const body = (await res.json()) as { data: { results: { ticker: string }[]; next_url?: string } };
      seen.push(...body.data.results.map((r) => r.ticker));
      const next = body.data.next_url ? new URL(body.data.next_url) : undefined;
      if (next) expect(`${next.protocol}//${next.host}`).toBe(server.url); // issued by this server…
      path = next ? next.pathname + next.search : undefined; // …followed on the other
      page++;
    }
    expect(page).toBe(Math.ceil(N / 20));
    expect(seen).toEqual(bulkTickers(N, 'S').map((t) => t.ticker));
  });

  it('both processes report ready against the shared store', async () => {
    for (const s of [a, b]) {
      const res = await fetch(`${s.url}/ready`);
      expect(res.status).toBe(200);
      expect(((await res.json()) as { data: { checks: { store: string } } }).data.checks.store).toBe('ok');
    }
  });
});
