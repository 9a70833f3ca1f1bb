import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { checkAdminToken } from '../server/admin-token.js';
import type { RouteContext } from '../server/context.js';
import { badParameter, notFound } from '../domain/errors.js';
import type { PlanCatalog } from '../server/plans.js';
import type { UsageRecorder } from '../server/usage.js';
import { DateString } from '../server/schemas.js';
import { envelope } from '../server/serializer.js';

// The operator's HTTP API for keys: create, list, show, revoke, usage; and the plan table.
// Authenticated by the admin token from the server's configuration (`--admin-token` /
// TICKERBASE_ADMIN_TOKEN), presented as `Authorization: Bearer <token>` or `X-Admin-Token`, and
// compared in constant time. API keys are never accepted here. Without a configured token these
// routes do not exist. They are POST/DELETE as well as GET, so they sit outside getRoute, and
// they are hidden from the OpenAPI document.

export interface AdminOptions {
  token: string;
  plans: PlanCatalog;
  usage?: UsageRecorder;
}

const KeyId = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64, description: 'a key id such as key_0123456789ab' }) });
const CreateBody = Type.Object(
  {
    plan: Type.Optional(Type.String({ minLength: 1, maxLength: 32, description: 'the name of a configured plan' })),
    label: Type.Optional(Type.String({ maxLength: 200, description: 'a label of at most 200 characters' })),
    expires_utc: Type.Optional(Type.String({ minLength: 1, maxLength: 40, description: 'an ISO 8601 date or time in the future' })),
  },
  { additionalProperties: false },
);
const UsageQuery = Type.Object({
  from: Type.Optional(DateString()),
  to: Type.Optional(DateString()),
});

export async function adminRoutes(app: FastifyInstance, ctx: RouteContext, opts: AdminOptions): Promise<void> {
  const wrapped = ctx.config.envelope === 'wrapped';
  const ok = (req: FastifyRequest, reply: FastifyReply, body: Record<string, unknown>, code = 200) => {
    const inner = { status: 'OK', request_id: req.id, ...body };
    return reply.code(code).header('Cache-Control', 'no-store').send(envelope(wrapped, inner, true));
  };

  const keys = ctx.services.keys;
  // request counts held in memory are written first, so usage includes the latest requests
  const flushUsage = async () => opts.usage?.flush();

  await app.register(async (admin) => {
    admin.addHook('onRequest', async (req) => {
      checkAdminToken(req, opts.token);
    });

    admin.get('/admin/plans', { schema: { hide: true } }, async (req, reply) => ok(req, reply, { results: opts.plans.list(), default_plan: opts.plans.defaultPlan }));

    admin.get('/admin/keys', { schema: { hide: true } }, async (req, reply) => {
      await flushUsage();
      const results = await keys.list();
      return ok(req, reply, { count: results.length, results });
    });

    admin.post<{ Body: Static<typeof CreateBody> }>('/admin/keys', { schema: { hide: true, body: CreateBody } }, async (req, reply) => {
      const body = req.body ?? {};
      const plan = body.plan ?? opts.plans.defaultPlan;
      if (!opts.plans.get(plan)) throw badParameter(`plan must be one of: ${opts.plans.names().join(', ')}`);
      let expires: string | undefined;
      if (body.expires_utc !== undefined) {
        const t = Date.parse(body.expires_utc);
        if (Number.isNaN(t) || t <= ctx.now()) throw badParameter('expires_utc must be an ISO 8601 date or time in the future');
        expires = new Date(t).toISOString();
      }
      const { key, record } = await keys.create({ plan, label: body.label, expires_utc: expires });
      req.log.info({ key_id: record.id, plan }, 'admin: key created');
      return ok(req, reply, { results: { ...record, key } }, 201);
    });

    admin.get<{ Params: Static<typeof KeyId> }>('/admin/keys/:id', { schema: { hide: true, params: KeyId } }, async (req, reply) => {
      await flushUsage();
      const results = await keys.get(req.params.id);
      if (!results) throw notFound(`No key with id ${req.params.id}`);
      return ok(req, reply, { results });
    });

    admin.delete<{ Params: Static<typeof KeyId> }>('/admin/keys/:id', { schema: { hide: true, params: KeyId } }, async (req, reply) => {
      const revoked = await keys.revoke(req.params.id);
      if (!revoked) throw notFound(`No key with id ${req.params.id}`);
      if (revoked.revokedNow) {
        ctx.auth.forget(); // this process stops accepting it at once; others within the auth cache's TTL
        req.log.info({ key_id: revoked.record.id }, 'admin: key revoked');
      }
      return ok(req, reply, { results: revoked.record });
    });

    admin.get<{ Params: Static<typeof KeyId>; Querystring: Static<typeof UsageQuery> }>(
      '/admin/keys/:id/usage',
      { schema: { hide: true, params: KeyId, querystring: UsageQuery } },
      async (req, reply) => {
        const { from, to } = req.query;
        await flushUsage();
        const usage = await keys.usage(req.params.id, from, to);
        if (!usage) throw notFound(`No key with id ${req.params.id}`);
        if (from && to && from > to) throw badParameter('from must not be after to');
        return ok(req, reply, { key_id: usage.key_id, count: usage.rows.length, totals: usage.totals, results: usage.rows });
      },
    );
  });
}
