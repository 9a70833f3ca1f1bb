// API keys for the operator: create, list and show with their recent usage, revoke, and the
// per-day usage of one key. Keys are stored only as hashes; the key itself is returned once, by create.
import type { Store } from '../store/index.js';
import type { ApiKeyRecord } from '../store/repos/keys.js';
import type { UsageRow } from '../store/repos/usage.js';

const DAY_MS = 86_400_000;

export type { ApiKeyRecord };

export interface KeyUsageSummary {
  requests_today: number;
  requests_30_days: number;
  errors_30_days: number;
}

export type KeyWithUsage = ApiKeyRecord & { usage: KeyUsageSummary };

function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export class KeyService {
  // Usage is read as stored: the HTTP layer writes the counts it holds in memory first.
  constructor(
    private readonly store: Pick<Store, 'keys' | 'usage'>,
    private readonly now: () => number,
  ) {}

  private async withUsage(keys: ApiKeyRecord[]): Promise<KeyWithUsage[]> {
    const now = this.now();
    const [today, month] = await Promise.all([this.store.usage.totalsSince(utcDay(now)), this.store.usage.totalsSince(utcDay(now - 29 * DAY_MS))]);
    return keys.map((k) => ({
      ...k,
      usage: { requests_today: today.get(k.id)?.requests ?? 0, requests_30_days: month.get(k.id)?.requests ?? 0, errors_30_days: month.get(k.id)?.errors ?? 0 },
    }));
  }

  async list(): Promise<KeyWithUsage[]> {
    return this.withUsage(await this.store.keys.list());
  }

  async get(id: string): Promise<KeyWithUsage | undefined> {
    const record = await this.store.keys.get(id);
    return record && (await this.withUsage([record]))[0];
  }

  create(opts: { plan: string; label?: string; expires_utc?: string }): Promise<{ key: string; record: ApiKeyRecord }> {
    return this.store.keys.create(opts);
  }

  /** Revokes a key (once: a revoked key keeps its first revocation time); undefined when unknown. */
  async revoke(id: string): Promise<{ record: ApiKeyRecord; revokedNow: boolean } | undefined> {
    const record = await this.store.keys.get(id);
    if (!record) return undefined;
    if (record.revoked_utc) return { record, revokedNow: false };
    await this.store.keys.revoke(id);
    return { record: (await this.store.keys.get(id))!, revokedNow: true };
  }

  /** Per-day usage of a key between two UTC days (inclusive), with totals; undefined when the key is unknown. */
  async usage(id: string, from?: string, to?: string): Promise<{ key_id: string; rows: UsageRow[]; totals: { requests: number; errors: number } } | undefined> {
    const record = await this.store.keys.get(id);
    if (!record) return undefined;
    const rows = await this.store.usage.forKey(record.id, from, to);
    const totals = rows.reduce((t, r) => ({ requests: t.requests + r.requests, errors: t.errors + r.errors }), { requests: 0, errors: 0 });
    return { key_id: record.id, rows, totals };
  }
}

/** Whether the store answers, and which engine it is (for readiness checks). */
export class StoreHealthService {
  constructor(private readonly store: Pick<Store, 'engine' | 'ping'>) {}

  get engine(): 'sqlite' | 'postgres' {
    return this.store.engine;
  }

  ping(): Promise<void> {
    return this.store.ping();
  }
}
