// What the live-feed scale tests share: a PostgreSQL schema of their own with one key, server
// processes over it, publishing to a process, and reading a feed client until it goes quiet.
import { randomBytes } from 'node:crypto';
import { openStore } from '../../src/store/index.js';
import { PostgresDriver } from '../../src/store/postgres/driver.js';
import { RawClient } from '../stream/feed-helpers.js';

export const ADMIN_TOKEN = 'admin-token-of-the-live-cluster-tests-0123456789';

export interface Schema {
  url: string;
  /** Keys of the demo plan, one feed connection each: one per subscriber. */
  keys: string[];
  drop(): Promise<void>;
}

/** A fresh schema in `databaseUrl` with demo-plan keys; `url` points every connection at it. */
export async function freshSchema(databaseUrl: string): Promise<Schema> {
  const schema = `tb_live_${randomBytes(5).toString('hex')}`;
  const store = await openStore({ databaseUrl, schema });
  const keys: string[] = [];
  try {
    for (let i = 0; i < 4; i++) keys.push((await store.keys.create({ plan: 'demo', label: `live cluster ${i}` })).key);
  } finally {
    await store.close();
  }
  const u = new URL(databaseUrl);
  u.searchParams.set('options', `-c search_path=${schema}`);
  return {
    url: u.toString(),
    keys,
    async drop() {
      const admin = PostgresDriver.open(databaseUrl, { max: 1 });
      await admin.exec(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).finally(() => admin.close());
    },
  };
}

export interface PublishAnswer {
  status: number;
  body: { trades_stored?: number; other_processes?: string; message?: string };
}

export async function publishTo(baseUrl: string, events: readonly object[]): Promise<PublishAnswer> {
  const res = await fetch(`${baseUrl}/admin/publish`, {
    method: 'POST',
    // a new connection each time, so the publishes of `serve --workers` are spread over the workers
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/x-ndjson', connection: 'close' },
    body: events.map((e) => JSON.stringify(e)).join('\n'),
  });
  const body = (await res.json()) as { data?: PublishAnswer['body'] } & PublishAnswer['body'];
  return { status: res.status, body: body.data ?? body };
}

/** A feed client of `baseUrl` subscribed to `params`, acknowledgements read. */
export async function subscriber(baseUrl: string, key: string, params: string): Promise<RawClient> {
  const c = await RawClient.ready(`${baseUrl.replace(/^http/, 'ws')}/stocks`, key);
  c.send({ action: 'subscribe', params });
  for (let i = 0; i < params.split(',').length; i++) await c.next();
  return c;
}

/** Every event the client receives until none comes for `quietMs`. */
export async function drain(c: RawClient, quietMs = 1500): Promise<Array<Record<string, unknown>>> {
  const out: Array<Record<string, unknown>> = [];
  for (;;) {
    try {
      for (const e of await c.next(quietMs)) if (e.ev !== 'status') out.push(e);
    } catch {
      return out;
    }
  }
}

export interface Readiness {
  status: number;
  body: { status: string; checks: Record<string, string>; degraded?: string[] };
}

export async function readiness(baseUrl: string, query = ''): Promise<Readiness> {
  const res = await fetch(`${baseUrl}/ready${query}`, { headers: { connection: 'close' } });
  const body = (await res.json()) as { data: Readiness['body'] };
  return { status: res.status, body: body.data };
}

/** Polls until `check` holds (or throws after `ms`). */
export async function until(what: string, check: () => Promise<boolean>, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * The start of a minute with at least `leftMs` still to run: the current one, or the next once
 * it has begun (waited for).
 */
export async function minuteWithRoom(leftMs: number): Promise<number> {
  let now = Date.now();
  let start = now - (now % 60_000);
  if (start + 60_000 - now < leftMs) {
    await new Promise((r) => setTimeout(r, start + 60_000 - now + 50));
    now = Date.now();
    start = now - (now % 60_000);
  }
  return start;
}

/** Waits until minute `start` is closed and its bars emitted (end + the 1 s grace + `slackMs`). */
export async function afterMinute(start: number, slackMs = 2500): Promise<void> {
  const wait = start + 60_000 + 1000 + slackMs - Date.now();
  if (wait > 0) await new Promise((r) => setTimeout(r, wait));
}
