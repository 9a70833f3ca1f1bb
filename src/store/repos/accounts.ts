import { randomBytes } from 'node:crypto';
import type { Row, SqlDriver } from '../driver.js';
import { toNumber, toOptionalString, UNVERSIONED } from '../driver.js';

// Dashboard accounts and invitations. Passwords arrive here already hashed (the service hashes
// them); emails are matched by their lower-case form so Ann@x.io and ann@x.io are one account.

export interface AccountRecord {
  id: string;
  email: string;
  is_admin: boolean;
  plan: string;
  created_utc: string;
  disabled_utc?: string;
}

/** An account with what sign-in needs: never leaves the service layer. */
export interface AccountCredentials extends AccountRecord {
  password_hash: string;
  failed_logins: number;
  locked_until_utc?: string;
}

export interface InvitationRecord {
  email?: string;
  plan: string;
  created_by: string;
  created_utc: string;
  expires_utc: string;
  used_utc?: string;
}

const COLUMNS = 'id, email, password_hash, is_admin, plan, created_utc, disabled_utc, failed_logins, locked_until_utc';

function toCredentials(row: Row): AccountCredentials {
  const r: AccountCredentials = {
    id: String(row.id),
    email: String(row.email),
    is_admin: toNumber(row.is_admin) === 1,
    plan: String(row.plan),
    created_utc: String(row.created_utc),
    password_hash: String(row.password_hash),
    failed_logins: toNumber(row.failed_logins),
  };
  const disabled = toOptionalString(row.disabled_utc);
  if (disabled !== undefined) r.disabled_utc = disabled;
  const locked = toOptionalString(row.locked_until_utc);
  if (locked !== undefined) r.locked_until_utc = locked;
  return r;
}

/** The public part of an account (no hash, no sign-in counters). */
export function publicAccount(c: AccountCredentials): AccountRecord {
  const r: AccountRecord = { id: c.id, email: c.email, is_admin: c.is_admin, plan: c.plan, created_utc: c.created_utc };
  if (c.disabled_utc !== undefined) r.disabled_utc = c.disabled_utc;
  return r;
}

/** Advisory lock id taken while an account is created (any constant; names no row). */
const ACCOUNT_CREATE_LOCK = 7_316_050_001;

export class AccountExistsError extends Error {
  constructor(email: string) {
    super(`an account with the email ${email} already exists`);
    this.name = 'AccountExistsError';
  }
}

export class AccountRepository {
  constructor(private readonly db: SqlDriver) {}

  /**
   * Creates an account. With `firstIsAdmin`, the account is made admin when it is the first one;
   * the count and the insert share one transaction. Throws AccountExistsError for a taken email.
   */
  async create(opts: { email: string; password_hash: string; plan: string; is_admin?: boolean; firstIsAdmin?: boolean }): Promise<AccountRecord> {
    const id = `acct_${randomBytes(6).toString('hex')}`;
    const lower = opts.email.toLowerCase();
    return this.db.transaction(async (tx) => {
      // PostgreSQL: concurrent sign-ups take turns, so only one of them can be "the first account"
      // (SQLite's write transactions already do)
      if (tx.engine === 'postgres') await tx.get('SELECT pg_advisory_xact_lock(?) AS locked', [ACCOUNT_CREATE_LOCK]);
      if (await tx.get('SELECT id FROM accounts WHERE email_lower = ?', [lower])) throw new AccountExistsError(opts.email);
      let admin = opts.is_admin === true;
      if (!admin && opts.firstIsAdmin) admin = toNumber((await tx.get('SELECT COUNT(*) AS n FROM accounts'))?.n ?? 0) === 0;
      await tx.run(
        `INSERT INTO accounts (id, email, email_lower, password_hash, is_admin, plan, created_utc, failed_logins) VALUES (?, ?, ?, ?, ?, ?, ?, 0)`,
        [id, opts.email, lower, opts.password_hash, admin ? 1 : 0, opts.plan, new Date().toISOString()],
        UNVERSIONED,
      );
      const row = await tx.get(`SELECT ${COLUMNS} FROM accounts WHERE id = ?`, [id]);
      return publicAccount(toCredentials(row as Row));
    }, UNVERSIONED);
  }

  async count(): Promise<number> {
    return toNumber((await this.db.get('SELECT COUNT(*) AS n FROM accounts'))?.n ?? 0);
  }

  async get(id: string): Promise<AccountRecord | undefined> {
    const row = await this.db.get(`SELECT ${COLUMNS} FROM accounts WHERE id = ?`, [id]);
    return row ? publicAccount(toCredentials(row)) : undefined;
  }

  async credentialsByEmail(email: string): Promise<AccountCredentials | undefined> {
    const row = await this.db.get(`SELECT ${COLUMNS} FROM accounts WHERE email_lower = ?`, [email.toLowerCase()]);
    return row ? toCredentials(row) : undefined;
  }

  async list(): Promise<AccountRecord[]> {
    return (await this.db.all(`SELECT ${COLUMNS} FROM accounts ORDER BY created_utc, id`)).map((r) => publicAccount(toCredentials(r)));
  }

  /** Counts a wrong password; from `lockAfter` failures on, the account is locked until `lockUntil`. Returns the new count. */
  async recordFailedLogin(id: string, lockAfter: number, lockUntilIso: string): Promise<number> {
    return this.db.transaction(async (tx) => {
      await tx.run('UPDATE accounts SET failed_logins = failed_logins + 1 WHERE id = ?', [id], UNVERSIONED);
      const n = toNumber((await tx.get('SELECT failed_logins FROM accounts WHERE id = ?', [id]))?.failed_logins ?? 0);
      if (n >= lockAfter) await tx.run('UPDATE accounts SET locked_until_utc = ?, failed_logins = 0 WHERE id = ?', [lockUntilIso, id], UNVERSIONED);
      return n;
    }, UNVERSIONED);
  }

  async clearFailedLogins(id: string): Promise<void> {
    await this.db.run('UPDATE accounts SET failed_logins = 0, locked_until_utc = NULL WHERE id = ?', [id], UNVERSIONED);
  }

  async setPlan(id: string, plan: string): Promise<boolean> {
    return (await this.db.run('UPDATE accounts SET plan = ? WHERE id = ?', [plan, id], UNVERSIONED)).changes > 0;
  }

  async setDisabled(id: string, disabled: boolean): Promise<boolean> {
    const r = await this.db.run('UPDATE accounts SET disabled_utc = ? WHERE id = ?', [disabled ? new Date().toISOString() : null, id], UNVERSIONED);
    return r.changes > 0;
  }

  async setAdmin(id: string, admin: boolean): Promise<boolean> {
    return (await this.db.run('UPDATE accounts SET is_admin = ? WHERE id = ?', [admin ? 1 : 0, id], UNVERSIONED)).changes > 0;
  }

  async setPassword(id: string, passwordHash: string): Promise<boolean> {
    return (await this.db.run('UPDATE accounts SET password_hash = ? WHERE id = ?', [passwordHash, id], UNVERSIONED)).changes > 0;
  }

  async createInvitation(tokenHash: string, inv: Omit<InvitationRecord, 'used_utc' | 'created_utc'>): Promise<void> {
    await this.db.run(
      'INSERT INTO invitations (token_hash, email, plan, created_by, created_utc, expires_utc, used_utc) VALUES (?, ?, ?, ?, ?, ?, NULL)',
      [tokenHash, inv.email ?? null, inv.plan, inv.created_by, new Date().toISOString(), inv.expires_utc],
      UNVERSIONED,
    );
  }

  /**
   * Marks an unused, unexpired invitation used and returns it; undefined when there is none, or
   * when it was made for an email other than `forEmail` (it then stays usable).
   */
  async useInvitation(tokenHash: string, nowIso: string, forEmail?: string): Promise<InvitationRecord | undefined> {
    return this.db.transaction(async (tx) => {
      const row = await tx.get('SELECT email, plan, created_by, created_utc, expires_utc, used_utc FROM invitations WHERE token_hash = ?', [tokenHash]);
      if (!row || row.used_utc !== null || String(row.expires_utc) <= nowIso) return undefined;
      if (forEmail !== undefined && row.email !== null && String(row.email).toLowerCase() !== forEmail.toLowerCase()) return undefined;
      await tx.run('UPDATE invitations SET used_utc = ? WHERE token_hash = ?', [nowIso, tokenHash], UNVERSIONED);
      const inv: InvitationRecord = { plan: String(row.plan), created_by: String(row.created_by), created_utc: String(row.created_utc), expires_utc: String(row.expires_utc), used_utc: nowIso };
      const email = toOptionalString(row.email);
      if (email !== undefined) inv.email = email;
      return inv;
    }, UNVERSIONED);
  }
}
