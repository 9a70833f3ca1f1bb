import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { mapAccountErrors } from '../../server/dashboard/errors.js';
import type { AccountRecord } from '../../services/accounts.js';
import type { DashboardDeps } from './deps.js';
import { answer, dashboardSchema, IdParam, Key, Ok } from './schemas.js';

// The signed-in account's keys: list, create (the secret is in this one answer only), revoke;
// and the explorer's short-lived token.

const CreateKeyBody = Type.Object({ label: Type.String({ minLength: 1, maxLength: 100, description: 'a label of 1 to 100 characters' }) }, { additionalProperties: false });

const account = (req: FastifyRequest) => req.dashboardAccount as AccountRecord;

export async function keyRoutes(app: FastifyInstance, d: DashboardDeps): Promise<void> {
  const { ctx, accounts, session } = d;
  const signedIn = { preHandler: session.requireAccount };

  app.get('/dashboard/api/keys', { ...signedIn, schema: dashboardSchema(ctx, { summary: "The account's keys (prefixes only)", response: Ok({ count: Type.Integer(), results: Type.Array(Key) }) }) }, async (req, reply) => {
    await d.usage?.flush();
    const results = await accounts.listKeys(account(req).id);
    return answer(ctx, req, reply, { count: results.length, results });
  });

  app.post<{ Body: Static<typeof CreateKeyBody> }>(
    '/dashboard/api/keys',
    {
      ...signedIn,
      schema: dashboardSchema(ctx, {
        summary: 'Create a key on the account plan',
        description: 'The answer holds the secret key: the only time it is ever shown.',
        body: CreateKeyBody,
        response: Ok({ key: Type.String({ description: 'the secret key, shown once' }), results: Key }),
        code: 201,
      }),
    },
    async (req, reply) => {
      const { key, record } = await mapAccountErrors(ctx.now, () => accounts.createKey(account(req), req.body.label));
      req.log.info({ key_id: record.id, account_id: account(req).id }, 'dashboard: key created');
      return answer(ctx, req, reply, { key, results: record }, 201);
    },
  );

  app.delete<{ Params: Static<typeof IdParam> }>(
    '/dashboard/api/keys/:id',
    { ...signedIn, schema: dashboardSchema(ctx, { summary: 'Revoke one of the account keys', params: IdParam, response: Ok({ results: Key }) }) },
    async (req, reply) => {
      const results = await mapAccountErrors(ctx.now, () => accounts.revokeKey(account(req), req.params.id));
      ctx.auth.forget(); // this process refuses the key at once; the others within the key cache's TTL
      req.log.info({ key_id: results.id, account_id: account(req).id }, 'dashboard: key revoked');
      return answer(ctx, req, reply, { results });
    },
  );

  app.post(
    '/dashboard/api/explorer-token',
    {
      ...signedIn,
      schema: dashboardSchema(ctx, {
        summary: 'A short-lived token for the explorer page to call the REST API with',
        description: 'Valid for 15 minutes, on the account plan; counted in the account usage.',
        response: Ok({ token: Type.String(), expires_utc: Type.String() }),
      }),
    },
    async (req, reply) => answer(ctx, req, reply, await accounts.explorerToken(account(req))),
  );
}
