import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../src/app.js';
import type { DashboardOptions } from '../../src/routes/dashboard/index.js';
import type { EnvelopeMode } from '../../src/server/context.js';
import type { Store } from '../../src/store/index.js';

/** A browser stand-in over app.inject: keeps the cookies it is given and sends the CSRF token. */
export class DashboardClient {
  readonly cookies = new Map<string, string>();
  csrf: string | undefined;

  constructor(
    readonly app: FastifyInstance,
    readonly envelope: EnvelopeMode = 'wrapped',
  ) {}

  private cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  private keep(res: LightMyRequestResponse): void {
    for (const c of res.cookies as { name: string; value: string; expires?: Date; maxAge?: number }[]) {
      if (c.value === '' || (c.expires && c.expires.getTime() <= Date.now())) this.cookies.delete(c.name);
      else this.cookies.set(c.name, c.value);
    }
  }

  /** The inner body, whatever the envelope. */
  data(res: LightMyRequestResponse): any {
    const body = res.json();
    return this.envelope === 'wrapped' ? body.data : body;
  }

  async request(method: 'GET' | 'POST' | 'DELETE' | 'PATCH', url: string, body?: unknown, opts: { csrf?: boolean; headers?: Record<string, string> } = {}): Promise<LightMyRequestResponse> {
    const headers: Record<string, string> = { ...opts.headers };
    if (this.cookies.size) headers.cookie = this.cookieHeader();
    if (method !== 'GET' && opts.csrf !== false && this.csrf) headers['x-csrf-token'] = this.csrf;
    const res = await this.app.inject({ method, url, headers, ...(body === undefined ? {} : { payload: body as object }) });
    this.keep(res);
    return res;
  }

  /** GET /dashboard/api/session: refreshes the CSRF token. */
  async session(): Promise<any> {
    const res = await this.request('GET', '/dashboard/api/session');
    const d = this.data(res);
    this.csrf = d.csrf_token;
    return d;
  }

  async signUp(email: string, password = 'correct horse battery'): Promise<LightMyRequestResponse> {
    if (!this.csrf) await this.session();
    return this.request('POST', '/dashboard/api/signup', { email, password });
  }

  async signIn(email: string, password = 'correct horse battery'): Promise<LightMyRequestResponse> {
    if (!this.csrf) await this.session();
    return this.request('POST', '/dashboard/api/login', { email, password });
  }
}

export async function dashboardApp(store: Store, opts: { dashboard?: DashboardOptions; envelope?: EnvelopeMode; loggerInstance?: Parameters<typeof buildApp>[0]['loggerInstance']; publicUrl?: string } = {}) {
  return buildApp({
    store,
    config: { envelope: opts.envelope ?? 'wrapped', publicUrl: opts.publicUrl },
    dashboard: { signInLimit: { prefix: `tb:test:${Math.random()}` }, ...opts.dashboard },
    loggerInstance: opts.loggerInstance,
    production: { usage: { flushIntervalMs: 60_000 } },
  });
}
