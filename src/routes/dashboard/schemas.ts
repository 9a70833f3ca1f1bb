import { Type, type TObject, type TProperties, type TSchema } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RouteContext } from '../../server/context.js';
import { Envelope, ErrorBody } from '../../server/schemas.js';

// TypeBox schemas of the dashboard's JSON API (validation, serialization and the OpenAPI
// document), and the one way its handlers answer: {status, request_id, ...} in the app's envelope.
// The response schemas are also a guard: fields they do not name (a key's hash) are never sent.

export const Email = Type.String({ minLength: 3, maxLength: 254, description: 'an email address such as ann@example.com' });
export const Password = Type.String({ minLength: 1, maxLength: 200, description: 'a password of 8 to 200 characters' });
export const PlanName = Type.String({ minLength: 1, maxLength: 32, description: 'the name of a configured plan' });
export const IdParam = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64, description: 'an id as listed' }) });

export const Account = Type.Object({
  id: Type.String(),
  email: Type.String(),
  is_admin: Type.Boolean(),
  plan: Type.String(),
  created_utc: Type.String(),
  disabled_utc: Type.Optional(Type.String()),
});

export const Key = Type.Object({
  id: Type.String(),
  label: Type.Optional(Type.String()),
  prefix: Type.String({ description: 'the first characters of the key: enough to recognise it, never enough to use it' }),
  plan: Type.String(),
  created_utc: Type.String(),
  revoked_utc: Type.Optional(Type.String()),
  expires_utc: Type.Optional(Type.String()),
  account_id: Type.Optional(Type.String()),
  last_used_day: Type.Optional(Type.String({ description: 'the last UTC day with a request' })),
  requests_today: Type.Integer(),
});

export const RateLimitState = Type.Object({
  requests: Type.Integer(),
  per_seconds: Type.Integer(),
  keys: Type.Array(Type.Object({ key_id: Type.String(), prefix: Type.String(), remaining: Type.Integer(), reset_ms: Type.Integer() })),
});

export const Plan = Type.Object({
  name: Type.String(),
  description: Type.Optional(Type.String()),
  timeframe: Type.String(),
  delay_minutes: Type.Optional(Type.Integer()),
  history_years: Type.Union([Type.Number(), Type.Null()]),
  rate_limit: Type.Union([Type.Object({ requests: Type.Integer(), per_seconds: Type.Integer() }), Type.Null()]),
  /** One row per data set: whether each market is included (all true for data sets sold without a market). */
  entitlements: Type.Array(Type.Object({ dataset: Type.String(), markets: Type.Record(Type.String(), Type.Boolean()) })),
});

export const Ok = (props: TProperties): TObject => Type.Object({ status: Type.String(), request_id: Type.String(), ...props });

export interface DashboardRouteSchema {
  summary: string;
  description?: string;
  body?: TSchema;
  params?: TSchema;
  querystring?: TSchema;
  response: TObject;
  code?: number;
}

/** A route's Fastify schema: tagged "dashboard", with the envelope around its answer and errors. */
export function dashboardSchema(ctx: RouteContext, s: DashboardRouteSchema): Record<string, unknown> {
  const wrapped = ctx.config.envelope === 'wrapped';
  const err = wrapped ? Envelope(ErrorBody, false) : ErrorBody;
  return {
    tags: ['dashboard'],
    summary: s.summary,
    description: `${s.description ?? ''}${s.description ? ' ' : ''}Needs a dashboard session cookie; requests other than GET need the X-CSRF-Token header.`,
    ...(s.body ? { body: s.body } : {}),
    ...(s.params ? { params: s.params } : {}),
    ...(s.querystring ? { querystring: s.querystring } : {}),
    response: { [s.code ?? 200]: wrapped ? Envelope(s.response, true) : s.response, '4xx': err, '5xx': err },
  };
}

/** Sends {status:"OK", request_id, ...body} in the app's envelope, never cached. */
export function answer(ctx: RouteContext, req: FastifyRequest, reply: FastifyReply, body: Record<string, unknown>, code = 200): FastifyReply {
  const inner = { status: 'OK', request_id: req.id, ...body };
  return reply.code(code).header('Cache-Control', 'no-store').send(ctx.config.envelope === 'wrapped' ? { ok: true, data: inner } : inner);
}
