import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { mapAccountErrors } from '../../server/dashboard/errors.js';
import { badParameter } from '../../domain/errors.js';
import { baseUrl } from '../../server/route.js';
import type { AccountRecord } from '../../services/accounts.js';
import type { DashboardDeps } from './deps.js';
import { Account, answer, dashboardSchema, Email, IdParam, Key, Ok, Password, PlanName } from './schemas.js';

// The operator's endpoints (admin accounts only; 403 for the others): accounts (create, invite,
// disable, set plan), every key (revoke), and the server's status.

const CreateAccountBody = Type.Object(
  { email: Email, password: Password, plan: Type.Optional(PlanName), admin: Type.Optional(Type.Boolean()) },
  { additionalProperties: false },
);
const InviteBody = Type.Object({ email: Type.Optional(Email), plan: Type.Optional(PlanName) }, { additionalProperties: false });
const UpdateAccountBody = Type.Object({ plan: Type.Optional(PlanName), disabled: Type.Optional(Type.Boolean()) }, { additionalProperties: false });

const StatusBody = Ok({
  version: Type.String(),
  ready: Type.Object({ ready: Type.Boolean(), checks: Type.Record(Type.String(), Type.String()) }),
  store: Type.Object({
    engine: Type.String(),
    size_bytes: Type.Integer(),
    rows: Type.Record(Type.String(), Type.Integer()),
    demo_loaded_utc: Type.Optional(Type.String()),
  }),
  signup_mode: Type.String(),
});

export async function operatorRoutes(app: FastifyInstance, d: DashboardDeps): Promise<void> {
  const { ctx, accounts, session } = d;
  const admin = { preHandler: session.requireAdmin };
  const me = (req: { dashboardAccount?: AccountRecord }) => req.dashboardAccount as AccountRecord;

  app.get('/dashboard/api/admin/accounts', { ...admin, schema: dashboardSchema(ctx, { summary: 'Every account (operators only)', response: Ok({ count: Type.Integer(), results: Type.Array(Account) }) }) }, async (req, reply) => {
    const results = await accounts.listAccounts();
    return answer(ctx, req, reply, { count: results.length, results });
  });

  app.post<{ Body: Static<typeof CreateAccountBody> }>(
    '/dashboard/api/admin/accounts',
    { ...admin, schema: dashboardSchema(ctx, { summary: 'Create an account (operators only)', body: CreateAccountBody, response: Ok({ account: Account }), code: 201 }) },
    async (req, reply) => {
      const account = await mapAccountErrors(ctx.now, () => accounts.createAccount(req.body));
      req.log.info({ account_id: account.id, by: me(req).id }, 'dashboard: operator created an account');
      return answer(ctx, req, reply, { account }, 201);
    },
  );

  app.patch<{ Params: Static<typeof IdParam>; Body: Static<typeof UpdateAccountBody> }>(
    '/dashboard/api/admin/accounts/:id',
    {
      ...admin,
      schema: dashboardSchema(ctx, {
        summary: "Change an account's plan (its keys follow) or disable it (its sessions end, its keys are revoked) (operators only)",
        params: IdParam,
        body: UpdateAccountBody,
        response: Ok({ account: Account }),
      }),
    },
    async (req, reply) => {
      if (req.params.id === me(req).id && req.body.disabled) throw badParameter('operators cannot disable their own account');
      const account = await mapAccountErrors(ctx.now, () => accounts.updateAccount(req.params.id, req.body));
      ctx.auth.forget();
      return answer(ctx, req, reply, { account });
    },
  );

  app.post<{ Body: Static<typeof InviteBody> }>(
    '/dashboard/api/admin/invitations',
    {
      ...admin,
      schema: dashboardSchema(ctx, {
        summary: 'Create an invitation link (operators only)',
        description: 'The link holds a one-time token valid for 7 days, shown in this answer only.',
        body: InviteBody,
        response: Ok({ token: Type.String(), url: Type.String(), expires_utc: Type.String() }),
        code: 201,
      }),
    },
    async (req, reply) => {
      const inv = await mapAccountErrors(ctx.now, () => accounts.invite({ ...req.body, created_by: me(req).id }));
      const base = baseUrl(ctx, req);
      // the token travels in the fragment, which browsers never send to a server or put in logs
      return answer(ctx, req, reply, { ...inv, url: `${base}/dashboard/#/signup?invitation=${inv.token}` }, 201);
    },
  );

  app.get('/dashboard/api/admin/keys', { ...admin, schema: dashboardSchema(ctx, { summary: 'Every key, with its owner (operators only)', response: Ok({ count: Type.Integer(), results: Type.Array(Key) }) }) }, async (req, reply) => {
    await d.usage?.flush();
    const results = await accounts.listKeys();
    return answer(ctx, req, reply, { count: results.length, results });
  });

  app.delete<{ Params: Static<typeof IdParam> }>(
    '/dashboard/api/admin/keys/:id',
    { ...admin, schema: dashboardSchema(ctx, { summary: 'Revoke any key (operators only)', params: IdParam, response: Ok({ results: Key }) }) },
    async (req, reply) => {
      const results = await mapAccountErrors(ctx.now, () => accounts.revokeKey(me(req), req.params.id, true));
      ctx.auth.forget();
      req.log.info({ key_id: results.id, by: me(req).id }, 'dashboard: operator revoked a key');
      return answer(ctx, req, reply, { results });
    },
  );

  app.get('/dashboard/api/admin/status', { ...admin, schema: dashboardSchema(ctx, { summary: 'Readiness, store size and contents, version (operators only)', response: StatusBody }) }, async (req, reply) => {
    const [ready, store] = await Promise.all([app.inject({ method: 'GET', url: '/ready' }), d.storeStatus()]);
    const body = ready.json() as { ok?: boolean; data?: { checks?: Record<string, string> }; checks?: Record<string, string> };
    const checks = (ctx.config.envelope === 'wrapped' ? body.data?.checks : body.checks) ?? {};
    return answer(ctx, req, reply, { version: d.version, ready: { ready: ready.statusCode === 200, checks }, store, signup_mode: d.signup });
  });
}
