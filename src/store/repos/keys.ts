import { randomBytes, timingSafeEqual } from 'node:crypto';
import { digest } from '../../domain/digest.js';
import type { Row, SqlDriver } from '../driver.js';
import { toOptionalString, UNVERSIONED } from '../driver.js';

export interface ApiKeyRecord {
  id: string;
  /** First characters of the key, enough for a person to tell keys apart; never enough to use. */
  prefix: string;
  label?: string;
  plan: string;
  created_utc: string;
  revoked_utc?: string;
  expires_utc?: string;
  /** The dashboard account that owns the key; absent for keys made by the CLI or the admin API. */
  account_id?: string;
  /** 'key', or 'explorer' for the short-lived tokens the dashboard's explorer uses. */
  kind: KeyKind;
}

export type KeyKind = 'key' | 'explorer';

export function hashKey(key: string): string {
  return digest('sha256', key, 'hex');
}

function toRecord(row: Row): ApiKeyRecord {
  const r: ApiKeyRecord = {
    id: String(row.id),
    prefix: String(row.prefix),
    plan: String(row.plan),
    created_utc: String(row.created_utc),
    kind: row.kind === 'explorer' ? 'explorer' : 'key',
  };
  const account = toOptionalString(row.account_id);
  if (account !== undefined) r.account_id = account;
  const label = toOptionalString(row.label);
  if (label !== undefined) r.label = label;
  const revoked = toOptionalString(row.revoked_utc);
  if (revoked !== undefined) r.revoked_utc = revoked;
  const expires = toOptionalString(row.expires_utc);
  if (expires !== undefined) r.expires_utc = expires;
  return r;
}

const COLUMNS = 'id, hash, prefix, label, plan, created_utc, revoked_utc, expires_utc, account_id, kind';

export class KeyRepository {
  constructor(private readonly db: SqlDriver) {}

  /** Creates a key and returns it in clear text: the only time it exists outside the caller. */
  async create(opts: { plan: string; label?: string; expires_utc?: string; account_id?: string; kind?: KeyKind }): Promise<{ key: string; record: ApiKeyRecord }> {
    const key = `tb_${randomBytes(24).toString('base64url')}`; // 192 random bits
    const id = `key_${randomBytes(6).toString('hex')}`;
    const created = new Date().toISOString();
    await this.db.run(
      `INSERT INTO api_keys (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, NULL, ?, ?, ?)`,
      [id, hashKey(key), key.slice(0, 7), opts.label ?? null, opts.plan, created, opts.expires_utc ?? null, opts.account_id ?? null, opts.kind ?? 'key'],
      UNVERSIONED,
    );
    const record = await this.get(id);
    return { key, record: record as ApiKeyRecord };
  }

  async get(id: string): Promise<ApiKeyRecord | undefined> {
    const row = await this.db.get(`SELECT ${COLUMNS} FROM api_keys WHERE id = ?`, [id]);
    return row ? toRecord(row) : undefined;
  }

  /** Looks a presented key up by its hash; the final comparison runs in constant time. */
  async findByKey(key: string): Promise<ApiKeyRecord | undefined> {
    const hash = hashKey(key);
    const row = await this.db.get(`SELECT ${COLUMNS} FROM api_keys WHERE hash = ?`, [hash]);
    if (!row) return undefined;
    const a = Buffer.from(String(row.hash), 'hex');
    const b = Buffer.from(hash, 'hex');
    if (a.length !== b.length || !timingSafeEqual(a, b)) return undefined;
    return toRecord(row);
  }

  /** Keys (never the explorer's short-lived tokens), all or one account's. */
  async list(opts: { account_id?: string } = {}): Promise<ApiKeyRecord[]> {
    const rows = opts.account_id === undefined
      ? await this.db.all(`SELECT ${COLUMNS} FROM api_keys WHERE kind = 'key' ORDER BY created_utc, seq`)
      : await this.db.all(`SELECT ${COLUMNS} FROM api_keys WHERE kind = 'key' AND account_id = ? ORDER BY created_utc, seq`, [opts.account_id]);
    return rows.map(toRecord);
  }

  /** Deletes an account's explorer tokens that expired before `beforeIso`. */
  async deleteExpiredTokens(accountId: string, beforeIso: string): Promise<number> {
    const r = await this.db.run(`DELETE FROM api_keys WHERE kind = 'explorer' AND account_id = ? AND expires_utc < ?`, [accountId, beforeIso], UNVERSIONED);
    return r.changes;
  }

  /** Moves an account's keys to another plan (when the operator changes the account's plan). */
  async setPlanForAccount(accountId: string, plan: string): Promise<number> {
    return (await this.db.run('UPDATE api_keys SET plan = ? WHERE account_id = ?', [plan, accountId], UNVERSIONED)).changes;
  }

  /** Revokes every active key and token of an account (when it is disabled). */
  async revokeForAccount(accountId: string): Promise<number> {
    return (await this.db.run('UPDATE api_keys SET revoked_utc = ? WHERE account_id = ? AND revoked_utc IS NULL', [new Date().toISOString(), accountId], UNVERSIONED)).changes;
  }

  async revoke(id: string): Promise<boolean> {
    const r = await this.db.run('UPDATE api_keys SET revoked_utc = ? WHERE id = ? AND revoked_utc IS NULL', [new Date().toISOString(), id], UNVERSIONED);
    return r.changes > 0;
  }
}
