import cookie from '@fastify/cookie';
import csrf from '@fastify/csrf-protection';
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler, preHandlerHookHandler } from 'fastify';
import type { AccountService } from '../../services/accounts.js';
import type { AccountRecord } from '../../services/accounts.js';
import { ApiError } from '../../domain/errors.js';

// Dashboard sessions and CSRF protection, registered inside the dashboard's own plugin scope so
// the cookie parsing and checks run on /dashboard requests only, never on the REST API's.
//
// - The session cookie holds a random id (the store keeps only its hash); it is signed,
//   httpOnly, SameSite=Strict, limited to /dashboard, and Secure on https.
// - CSRF: @fastify/csrf-protection keeps a secret in a second signed cookie; every request that
//   is not GET/HEAD/OPTIONS must carry a token made from it in the X-CSRF-Token header, or gets 403.
// - Only the cookie opens a session: API keys (headers or query) are never looked at here, and
//   the session cookie is never looked at by the REST API.

export const SESSION_COOKIE = 'tb_session';
export const CSRF_COOKIE = 'tb_csrf';
const COOKIE_PATH = '/dashboard';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface SessionLayerOptions {
  /** Signs the cookies; the same on every process (kept in the store). */
  cookieSecret: string;
  /** Always mark cookies Secure (public URL is https); otherwise they are Secure when the request came over https. */
  secure: boolean;
  accounts: AccountService;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in dashboard account (set by requireAccount). */
    dashboardAccount?: AccountRecord;
  }
}

export interface SessionLayer {
  /** Starts a session for the account and sets its cookie. */
  signIn(reply: FastifyReply, accountId: string): Promise<void>;
  /** Ends the request's session (if any) and clears its cookie. */
  signOut(req: FastifyRequest, reply: FastifyReply): Promise<void>;
  /** The account of the request's session, if it has a live one. */
  account(req: FastifyRequest): Promise<AccountRecord | undefined>;
  /** A CSRF token for the page to send back in X-CSRF-Token (sets the secret cookie when needed). */
  csrfToken(reply: FastifyReply): string;
  /** preHandler: 401 unless signed in. */
  requireAccount: preHandlerHookHandler;
  /** preHandler: 401 unless signed in, 403 unless the account is an operator. */
  requireAdmin: preHandlerHookHandler;
}

export async function registerSessionLayer(scope: FastifyInstance, opts: SessionLayerOptions): Promise<SessionLayer> {
  const cookieOpts = { path: COOKIE_PATH, httpOnly: true, sameSite: 'strict' as const, secure: opts.secure ? true : ('auto' as const), signed: true };
  await scope.register(cookie, { secret: opts.cookieSecret, hook: 'onRequest' });
  await scope.register(csrf, { sessionPlugin: '@fastify/cookie', cookieKey: CSRF_COOKIE, cookieOpts, getToken: (req) => headerValue(req, 'x-csrf-token') });

  // The plugin answers a failed check with reply.send(error), whose 403 the app's error handler
  // would not keep; this reply stand-in turns it into the API's own 403 instead.
  const checkCsrf: onRequestHookHandler = (req, reply, done) => {
    if (SAFE_METHODS.has(req.method)) return done();
    let finished = false;
    const stand = Object.create(reply) as FastifyReply;
    stand.send = () => {
      if (!finished) {
        finished = true;
        done(new ApiError('FORBIDDEN', 'CSRF token missing or invalid: send the token from GET /dashboard/api/session in the X-CSRF-Token header'));
      }
      return stand;
    };
    scope.csrfProtection(req, stand, () => {
      if (!finished) {
        finished = true;
        done();
      }
    });
  };
  scope.addHook('onRequest', checkCsrf);

  const sessionId = (req: FastifyRequest): string | undefined => {
    const raw = req.cookies[SESSION_COOKIE];
    if (!raw) return undefined;
    const u = req.unsignCookie(raw);
    return u.valid && u.value ? u.value : undefined;
  };

  const account = async (req: FastifyRequest) => {
    const id = sessionId(req);
    return id === undefined ? undefined : opts.accounts.sessionAccount(id);
  };

  const requireAccount: preHandlerHookHandler = (req, _reply, done) => {
    account(req).then((a) => {
      if (!a) return done(new ApiError('NOT_SIGNED_IN', 'Sign in to the dashboard first (API keys do not open the dashboard)'));
      req.dashboardAccount = a;
      done();
    }, done);
  };

  const requireAdmin: preHandlerHookHandler = (req, reply, done) => {
    requireAccount.call(scope, req, reply, (err?: Error) => {
      if (err) return done(err);
      if (!req.dashboardAccount?.is_admin) return done(new ApiError('FORBIDDEN', 'Only operators (admin accounts) may use this endpoint'));
      done();
    });
  };

  return {
    async signIn(reply, accountId) {
      // a browser signing in again leaves its previous session behind: end it
      const previous = sessionId(reply.request);
      if (previous !== undefined) await opts.accounts.endSession(previous);
      const s = await opts.accounts.startSession(accountId);
      reply.setCookie(SESSION_COOKIE, s.id, { ...cookieOpts, expires: new Date(s.expires) });
    },
    async signOut(req, reply) {
      const id = sessionId(req);
      if (id !== undefined) await opts.accounts.endSession(id);
      reply.clearCookie(SESSION_COOKIE, { path: COOKIE_PATH });
    },
    account,
    csrfToken: (reply) => reply.generateCsrf(),
    requireAccount,
    requireAdmin,
  };
}

function headerValue(req: FastifyRequest, name: string): string | undefined {
  const v = req.headers[name];
  return typeof v === 'string' ? v : undefined;
}
