import { UNVERSIONED, type SqlDriver } from '../driver.js';

// Dashboard sessions. The id the browser holds is stored only as its SHA-256 hash (the caller
// hashes), so a copy of the database opens no session.

export interface SessionRecord {
  account_id: string;
  created_utc: string;
  expires_utc: string;
}

export class SessionRepository {
  constructor(private readonly db: SqlDriver) {}

  async create(idHash: string, accountId: string, expiresIso: string): Promise<void> {
    await this.db.run('INSERT INTO sessions (id_hash, account_id, created_utc, expires_utc) VALUES (?, ?, ?, ?)', [idHash, accountId, new Date().toISOString(), expiresIso], UNVERSIONED);
  }

  /** The session if it exists and has not expired at `nowIso`. */
  async find(idHash: string, nowIso: string): Promise<SessionRecord | undefined> {
    const row = await this.db.get('SELECT account_id, created_utc, expires_utc FROM sessions WHERE id_hash = ? AND expires_utc > ?', [idHash, nowIso]);
    return row ? { account_id: String(row.account_id), created_utc: String(row.created_utc), expires_utc: String(row.expires_utc) } : undefined;
  }

  async delete(idHash: string): Promise<void> {
    await this.db.run('DELETE FROM sessions WHERE id_hash = ?', [idHash], UNVERSIONED);
  }

  /** Ends every session of an account (disabled account, changed password). */
  async deleteForAccount(accountId: string): Promise<number> {
    return (await this.db.run('DELETE FROM sessions WHERE account_id = ?', [accountId], UNVERSIONED)).changes;
  }

  async deleteExpired(nowIso: string): Promise<number> {
    return (await this.db.run('DELETE FROM sessions WHERE expires_utc <= ?', [nowIso], UNVERSIONED)).changes;
  }
}
