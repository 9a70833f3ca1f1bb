import { randomBytes } from 'node:crypto';
import type { Store } from '../store/index.js';
import { AccountExistsError, type AccountRecord } from '../store/repos/accounts.js';
import { hashKey, type ApiKeyRecord } from '../store/repos/keys.js';
import type { UsageRow } from '../store/repos/usage.js';
import { decoyHash, hashPassword, verifyPassword } from './passwords.js';

// Everything the dashboard does with accounts: sign-up (by mode), sign-in with lockout, sessions,
// invitations, an account's keys and usage, and the operator's changes. Errors are AccountError
// values with a code; the HTTP layer maps each code to a status once.

export type { AccountRecord };

export type SignupMode = 'open' | 'invite' | 'closed';
export const SIGNUP_MODES: readonly SignupMode[] = ['open', 'invite', 'closed'];

export type AccountErrorCode =
  | 'BAD_INPUT'
  | 'EMAIL_TAKEN'
  | 'SIGNUP_CLOSED'
  | 'BAD_INVITATION'
  | 'BAD_CREDENTIALS'
  | 'LOCKED'
  | 'NOT_FOUND';

export class AccountError extends Error {
  constructor(
    readonly code: AccountErrorCode,
    message: string,
    /** For LOCKED: when sign-in is possible again (epoch ms). */
    readonly until?: number,
  ) {
    super(message);
    this.name = 'AccountError';
  }
}

export const LOCK_AFTER_FAILURES = 5;
export const MIN_PASSWORD_LENGTH = 8;
const EMAIL = /^[^\s@<>"']{1,64}@[^\s@<>"']{1,189}\.[^\s@<>"'.]{1,63}$/;

export interface AccountServiceOptions {
  /** Plan of accounts created without one. */
  defaultPlan: string;
  isPlan: (name: string) => boolean;
  now?: () => number;
  /** How long a wrong-password lockout lasts (default 15 minutes). */
  lockMs?: number;
  /** How long a session lasts from sign-in (default 12 hours). */
  sessionMs?: number;
  /** How long an explorer token lasts (default 15 minutes). */
  explorerTokenMs?: number;
  /** How long an invitation is valid (default 7 days). */
  invitationMs?: number;
}

export interface DashboardKey {
  id: string;
  label?: string;
  prefix: string;
  plan: string;
  created_utc: string;
  revoked_utc?: string;
  expires_utc?: string;
  account_id?: string;
  /** The last UTC day with a request (usage is counted per day). */
  last_used_day?: string;
  requests_today: number;
}

export interface UsageDay {
  day: string;
  requests: number;
  errors: number;
  families: Record<string, number>;
}

function checkEmail(email: string): string {
  const e = email.trim();
  if (e.length > 254 || !EMAIL.test(e)) throw new AccountError('BAD_INPUT', 'email must be an email address such as ann@example.com');
  return e;
}

function checkPassword(password: string): void {
  if (password.length < MIN_PASSWORD_LENGTH) throw new AccountError('BAD_INPUT', `password must be at least ${MIN_PASSWORD_LENGTH} characters`);
  if (password.length > 200) throw new AccountError('BAD_INPUT', 'password must be at most 200 characters');
}

const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export class AccountService {
  private readonly now: () => number;

  constructor(
    private readonly store: Pick<Store, 'accounts' | 'sessions' | 'keys' | 'usage'>,
    private readonly opts: AccountServiceOptions,
  ) {
    this.now = opts.now ?? Date.now;
  }

  private plan(name: string | undefined): string {
    const plan = name ?? this.opts.defaultPlan;
    if (!this.opts.isPlan(plan)) throw new AccountError('BAD_INPUT', `plan "${plan}" is not a configured plan`);
    return plan;
  }

  /** Creates an account directly (operator, CLI, demo). */
  async createAccount(input: { email: string; password: string; plan?: string; admin?: boolean }): Promise<AccountRecord> {
    const email = checkEmail(input.email);
    checkPassword(input.password);
    const plan = this.plan(input.plan);
    try {
      return await this.store.accounts.create({ email, password_hash: await hashPassword(input.password), plan, is_admin: input.admin, firstIsAdmin: true });
    } catch (err) {
      if (err instanceof AccountExistsError) throw new AccountError('EMAIL_TAKEN', 'an account with this email already exists');
      throw err;
    }
  }

  /**
   * Self-service sign-up. `open`: anyone; `invite`: with an invitation token (or the very first
   * account, which becomes the operator); `closed`: nobody (the operator uses the CLI).
   */
  async signUp(input: { email: string; password: string; invitation?: string }, mode: SignupMode): Promise<AccountRecord> {
    if (mode === 'closed') throw new AccountError('SIGNUP_CLOSED', 'sign-up is closed on this server; ask its operator for an account');
    const email = checkEmail(input.email);
    checkPassword(input.password);
    let plan: string | undefined;
    if (input.invitation) {
      const inv = await this.store.accounts.useInvitation(hashKey(input.invitation), new Date(this.now()).toISOString(), email);
      if (!inv) throw new AccountError('BAD_INVITATION', 'the invitation is unknown, used, expired, or made for another email');
      plan = inv.plan;
    } else if (mode === 'invite' && (await this.store.accounts.count()) > 0) {
      throw new AccountError('SIGNUP_CLOSED', 'sign-up needs an invitation on this server');
    }
    return this.createAccount({ email, password: input.password, plan });
  }

  /**
   * Checks email and password. Five wrong passwords in a row lock the account for lockMs; a
   * locked or disabled account cannot sign in whatever the password. Unknown emails cost the
   * same hashing time as known ones.
   */
  async signIn(emailIn: string, password: string): Promise<AccountRecord> {
    const creds = await this.store.accounts.credentialsByEmail(emailIn.trim());
    const t = this.now();
    if (creds?.locked_until_utc && Date.parse(creds.locked_until_utc) > t) {
      throw new AccountError('LOCKED', 'too many wrong passwords: this account is locked for a while', Date.parse(creds.locked_until_utc));
    }
    const ok = await verifyPassword(password, creds?.password_hash ?? (await decoyHash()));
    if (!creds || !ok) {
      if (creds) {
        const until = t + (this.opts.lockMs ?? 15 * 60_000);
        const n = await this.store.accounts.recordFailedLogin(creds.id, LOCK_AFTER_FAILURES, new Date(until).toISOString());
        if (n >= LOCK_AFTER_FAILURES) throw new AccountError('LOCKED', 'too many wrong passwords: this account is locked for a while', until);
      }
      throw new AccountError('BAD_CREDENTIALS', 'wrong email or password');
    }
    if (creds.disabled_utc) throw new AccountError('BAD_CREDENTIALS', 'this account is disabled');
    if (creds.failed_logins > 0 || creds.locked_until_utc) await this.store.accounts.clearFailedLogins(creds.id);
    const { password_hash: _h, failed_logins: _f, locked_until_utc: _l, ...account } = creds;
    return account;
  }

  /** A new session for the account: the id to hand to the browser (stored hashed) and its expiry. */
  async startSession(accountId: string): Promise<{ id: string; expires: number }> {
    const id = randomBytes(32).toString('base64url');
    const expires = this.now() + (this.opts.sessionMs ?? 12 * 3_600_000);
    await this.store.sessions.deleteExpired(new Date(this.now()).toISOString());
    await this.store.sessions.create(hashKey(id), accountId, new Date(expires).toISOString());
    return { id, expires };
  }

  /** The account of a live session; undefined when the session is unknown, expired, or its account disabled. */
  async sessionAccount(sessionId: string): Promise<AccountRecord | undefined> {
    if (sessionId.length > 100) return undefined;
    const s = await this.store.sessions.find(hashKey(sessionId), new Date(this.now()).toISOString());
    if (!s) return undefined;
    const account = await this.store.accounts.get(s.account_id);
    return account && !account.disabled_utc ? account : undefined;
  }

  async endSession(sessionId: string): Promise<void> {
    await this.store.sessions.delete(hashKey(sessionId));
  }

  /** An invitation token (shown once; stored hashed) for an optional email and a plan. */
  async invite(input: { email?: string; plan?: string; created_by: string }): Promise<{ token: string; expires_utc: string }> {
    const email = input.email ? checkEmail(input.email) : undefined;
    const plan = this.plan(input.plan);
    const token = randomBytes(24).toString('base64url');
    const expires_utc = new Date(this.now() + (this.opts.invitationMs ?? 7 * 86_400_000)).toISOString();
    await this.store.accounts.createInvitation(hashKey(token), { email, plan, created_by: input.created_by, expires_utc });
    return { token, expires_utc };
  }

  /** A key for the account on the account's plan; the secret is returned here only. */
  async createKey(account: AccountRecord, label: string): Promise<{ key: string; record: DashboardKey }> {
    const clean = label.trim();
    if (clean.length === 0 || clean.length > 100) throw new AccountError('BAD_INPUT', 'label must be 1 to 100 characters');
    const { key, record } = await this.store.keys.create({ plan: account.plan, label: clean, account_id: account.id });
    return { key, record: { ...toDashboardKey(record), requests_today: 0 } };
  }

  /**
   * A short-lived token for the explorer to call the REST API with (never a user's own key).
   * Tokens are deleted once they have been expired for longer than the usage page looks back, so
   * their requests stay in the account's 30 days of usage.
   */
  async explorerToken(account: AccountRecord): Promise<{ token: string; expires_utc: string }> {
    await this.store.keys.deleteExpiredTokens(account.id, new Date(this.now() - 31 * 86_400_000).toISOString());
    const expires_utc = new Date(this.now() + (this.opts.explorerTokenMs ?? 15 * 60_000)).toISOString();
    const { key } = await this.store.keys.create({ plan: account.plan, label: 'dashboard explorer', account_id: account.id, kind: 'explorer', expires_utc });
    return { token: key, expires_utc };
  }

  /** Keys with their last day of use and today's requests: an account's, or all (operator). */
  async listKeys(accountId?: string): Promise<DashboardKey[]> {
    const keys = await this.store.keys.list(accountId === undefined ? {} : { account_id: accountId });
    const [today, last] = await Promise.all([this.store.usage.totalsSince(utcDay(this.now())), this.store.usage.lastDays()]);
    return keys.map((k) => {
      const d: DashboardKey = { ...toDashboardKey(k), requests_today: today.get(k.id)?.requests ?? 0 };
      const lastDay = last.get(k.id);
      if (lastDay !== undefined) d.last_used_day = lastDay;
      return d;
    });
  }

  /** Revokes a key of the account (any key for an operator). Returns the key as it now is. */
  async revokeKey(account: AccountRecord, keyId: string, asOperator = false): Promise<DashboardKey> {
    const k = await this.store.keys.get(keyId);
    if (!k || k.kind !== 'key' || (!asOperator && k.account_id !== account.id)) throw new AccountError('NOT_FOUND', `no key with id ${keyId}`);
    await this.store.keys.revoke(keyId);
    const now = (await this.store.keys.get(keyId)) as ApiKeyRecord;
    return { ...toDashboardKey(now), requests_today: 0 };
  }

  /**
   * Requests per day (oldest first, every day present) and per family, for `days` days up to
   * today: of one account's keys and tokens, or of every key of the server (the operator's view,
   * which counts keys that belong to no account, such as the demo key and keys made by the CLI).
   */
  async usage(scope: { accountId: string } | 'server', days = 30): Promise<UsageDay[]> {
    const t = this.now();
    const from = utcDay(t - (days - 1) * 86_400_000);
    const rows = scope === 'server' ? await this.store.usage.forServer(from) : await this.store.usage.forAccount(scope.accountId, from);
    const byDay = new Map<string, UsageRow[]>();
    for (const r of rows) byDay.set(r.day, [...(byDay.get(r.day) ?? []), r]);
    const out: UsageDay[] = [];
    for (let i = days - 1; i >= 0; i--) {
      const day = utcDay(t - i * 86_400_000);
      const list = byDay.get(day) ?? [];
      out.push({
        day,
        requests: list.reduce((s, r) => s + r.requests, 0),
        errors: list.reduce((s, r) => s + r.errors, 0),
        families: Object.fromEntries(list.map((r) => [r.family, r.requests])),
      });
    }
    return out;
  }

  async listAccounts(): Promise<AccountRecord[]> {
    return this.store.accounts.list();
  }

  /** Operator changes: plan (the account's keys follow) and disabled (sessions end, keys revoked). */
  async updateAccount(id: string, change: { plan?: string; disabled?: boolean }): Promise<AccountRecord> {
    const account = await this.store.accounts.get(id);
    if (!account) throw new AccountError('NOT_FOUND', `no account with id ${id}`);
    if (change.plan !== undefined) {
      const plan = this.plan(change.plan);
      await this.store.accounts.setPlan(id, plan);
      await this.store.keys.setPlanForAccount(id, plan);
    }
    if (change.disabled !== undefined) {
      await this.store.accounts.setDisabled(id, change.disabled);
      if (change.disabled) {
        await this.store.sessions.deleteForAccount(id);
        await this.store.keys.revokeForAccount(id);
      }
    }
    return (await this.store.accounts.get(id)) as AccountRecord;
  }
}

function toDashboardKey(k: ApiKeyRecord): Omit<DashboardKey, 'requests_today'> {
  const d: Omit<DashboardKey, 'requests_today'> = { id: k.id, prefix: k.prefix, plan: k.plan, created_utc: k.created_utc };
  if (k.label !== undefined) d.label = k.label;
  if (k.revoked_utc !== undefined) d.revoked_utc = k.revoked_utc;
  if (k.expires_utc !== undefined) d.expires_utc = k.expires_utc;
  if (k.account_id !== undefined) d.account_id = k.account_id;
  return d;
}
