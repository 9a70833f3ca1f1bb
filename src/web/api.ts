// The dashboard's calls: its own JSON API (session cookie + CSRF token) and the REST API (a
// short-lived explorer token, never a user's key). Both envelopes are understood.

export interface Account {
  id: string;
  email: string;
  is_admin: boolean;
  plan: string;
  created_utc: string;
  disabled_utc?: string;
}

export interface Session {
  signed_in: boolean;
  account?: Account;
  csrf_token: string;
  signup_mode: 'open' | 'invite' | 'closed';
  public_url: string;
  /** Base URL answering in upstream's bodies: what the official clients are pointed at. */
  client_url: string;
  envelope: 'wrapped' | 'native';
  version: string;
}

export interface Key {
  id: string;
  label?: string;
  prefix: string;
  plan: string;
  created_utc: string;
  revoked_utc?: string;
  expires_utc?: string;
  account_id?: string;
  last_used_day?: string;
  requests_today: number;
}

export interface Plan {
  name: string;
  description?: string;
  timeframe: string;
  delay_minutes?: number;
  history_years: number | null;
  rate_limit: { requests: number; per_seconds: number } | null;
  entitlements: { dataset: string; markets: Record<string, boolean> }[];
}

export interface UsageDay {
  day: string;
  requests: number;
  errors: number;
  families: Record<string, number>;
}

export interface Usage {
  days: UsageDay[];
  plan: Plan | null;
  rate_limit: { requests: number; per_seconds: number; keys: { key_id: string; prefix: string; remaining: number; reset_ms: number }[] } | null;
}

export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

let csrfToken = '';

type Json = Record<string, unknown>;

function inner(body: unknown): Json {
  const b = body as Json;
  return b && typeof b === 'object' && 'ok' in b && 'data' in b ? (b.data as Json) : b;
}

async function parse(res: Response): Promise<Json> {
  let body: Json = {};
  try {
    body = inner(await res.json());
  } catch {
    // not JSON: the status says enough
  }
  if (!res.ok) throw new ApiFailure(res.status, String(body.message ?? body.error ?? `HTTP ${res.status}`));
  return body;
}

/** A call to the dashboard's JSON API. */
export async function call<T>(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET') headers['x-csrf-token'] = csrfToken;
  const res = await fetch(`/dashboard/api/${path}`, { method, headers, credentials: 'same-origin', body: body === undefined ? undefined : JSON.stringify(body) });
  return (await parse(res)) as T;
}

export async function loadSession(): Promise<Session> {
  const s = await call<Session>('GET', 'session');
  csrfToken = s.csrf_token;
  return s;
}

let token: { value: string; expires: number } | undefined;

/** The explorer's token, renewed a minute before it expires. */
async function explorerToken(): Promise<string> {
  if (!token || token.expires - Date.now() < 60_000) {
    const t = await call<{ token: string; expires_utc: string }>('POST', 'explorer-token');
    token = { value: t.token, expires: Date.parse(t.expires_utc) };
  }
  return token.value;
}

export function forgetExplorerToken(): void {
  token = undefined;
}

/** A GET on the REST API with the explorer token (in a header: never in a URL). */
export async function rest<T>(pathAndQuery: string): Promise<T> {
  const res = await fetch(pathAndQuery, { headers: { authorization: `Bearer ${await explorerToken()}` }, credentials: 'omit' });
  return (await parse(res)) as T;
}

/** An image from the REST API (branding logos need the token), as an object URL. */
export async function restImage(url: string): Promise<string> {
  const path = url.replace(/^https?:\/\/[^/]+/, '');
  const res = await fetch(path, { headers: { authorization: `Bearer ${await explorerToken()}` }, credentials: 'omit' });
  if (!res.ok) throw new ApiFailure(res.status, `logo: HTTP ${res.status}`);
  return URL.createObjectURL(await res.blob());
}
