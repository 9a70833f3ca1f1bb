import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { AccountError } from '../../services/accounts.js';
import { mapAccountErrors } from '../../server/dashboard/errors.js';
import { CLIENT_BASE_PATH } from '../../server/api-bases.js';
import { baseUrl } from '../../server/route.js';
import type { DashboardDeps } from './deps.js';
import { Account, answer, dashboardSchema, Email, Ok, Password } from './schemas.js';

// Session endpoints: who am I (and a CSRF token), sign up, sign in, sign out.

const SignUpBody = Type.Object(
  { email: Email, password: Password, invitation: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'an invitation token' })) },
  { additionalProperties: false },
);
const SignInBody = Type.Object({ email: Email, password: Password }, { additionalProperties: false });

const SessionBody = Ok({
  signed_in: Type.Boolean(),
  account: Type.Optional(Account),
  csrf_token: Type.String({ description: 'send it back in X-CSRF-Token on every request other than GET' }),
  signup_mode: Type.String(),
  public_url: Type.String({ description: 'the base URL of this server REST API' }),
  client_url: Type.String({ description: "the base URL that answers in upstream's bodies, for the official clients" }),
  envelope: Type.String(),
  version: Type.String(),
});
const AccountBody = Ok({ account: Account });

export async function sessionRoutes(app: FastifyInstance, d: DashboardDeps): Promise<void> {
  const { ctx, accounts, session } = d;

  app.get('/dashboard/api/session', { schema: dashboardSchema(ctx, { summary: 'The signed-in account (if any) and a CSRF token', response: SessionBody }) }, async (req, reply) => {
    const account = await session.account(req);
    return answer(ctx, req, reply, {
      signed_in: account !== undefined,
      ...(account ? { account } : {}),
      csrf_token: session.csrfToken(reply),
      signup_mode: d.signup,
      public_url: baseUrl(ctx, req),
      client_url: baseUrl(ctx, req) + CLIENT_BASE_PATH,
      envelope: ctx.config.envelope,
      version: d.version,
    });
  });

  app.post<{ Body: Static<typeof SignUpBody> }>(
    '/dashboard/api/signup',
    { schema: dashboardSchema(ctx, { summary: 'Create an account (open sign-up, or with an invitation) and sign in', body: SignUpBody, response: AccountBody, code: 201 }) },
    async (req, reply) => {
      const account = await mapAccountErrors(ctx.now, () => accounts.signUp(req.body, d.signup));
      await session.signIn(reply, account.id);
      req.log.info({ account_id: account.id, admin: account.is_admin }, 'dashboard: account created');
      return answer(ctx, req, reply, { account }, 201);
    },
  );

  app.post<{ Body: Static<typeof SignInBody> }>(
    '/dashboard/api/login',
    { schema: dashboardSchema(ctx, { summary: 'Sign in with email and password', body: SignInBody, response: AccountBody }) },
    async (req, reply) => {
      await d.signInLimit.check(req.ip);
      const account = await mapAccountErrors(ctx.now, async () => {
        try {
          return await accounts.signIn(req.body.email, req.body.password);
        } catch (err) {
          if (err instanceof AccountError) await d.signInLimit.failed(req.ip);
          throw err;
        }
      });
      await session.signIn(reply, account.id);
      return answer(ctx, req, reply, { account });
    },
  );

  app.post('/dashboard/api/logout', { schema: dashboardSchema(ctx, { summary: 'Sign out (ends the session)', response: Ok({}) }) }, async (req, reply) => {
    await session.signOut(req, reply);
    return answer(ctx, req, reply, {});
  });
}
