import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { RouteContext } from '../server/context.js';
import { listPage } from '../server/pagination.js';
import { getRoute, requestCacheKey } from '../server/route.js';
import { Cursor, Limit, ListBody, Order, StringEnum } from '../server/schemas.js';
import { CONDITION_SORT_FIELDS } from '../services/reference.js';

const UpdateRule = Type.Object({
  updates_high_low: Type.Boolean(),
  updates_open_close: Type.Boolean(),
  updates_volume: Type.Boolean(),
});

const Condition = Type.Object({
  id: Type.Integer(),
  type: Type.String(),
  name: Type.String(),
  abbreviation: Type.Optional(Type.String()),
  description: Type.Optional(Type.String()),
  asset_class: Type.String(),
  sip_mapping: Type.Optional(Type.Record(Type.String(), Type.String())),
  exchange: Type.Optional(Type.Integer()),
  legacy: Type.Optional(Type.Boolean()),
  data_types: Type.Array(Type.String()),
  update_rules: Type.Optional(Type.Object({ consolidated: UpdateRule, market_center: UpdateRule })),
});

const ConditionsQuery = Type.Object({
  asset_class: Type.Optional(StringEnum(['stocks', 'options', 'crypto', 'fx'] as const)),
  data_type: Type.Optional(StringEnum(['trade', 'bbo', 'nbbo'] as const)),
  id: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000 })),
  sip: Type.Optional(StringEnum(['CTA', 'UTP', 'OPRA'] as const)),
  order: Order('asc'),
  limit: Limit(10, 1000),
  sort: StringEnum(CONDITION_SORT_FIELDS, { default: 'asset_class' }),
  cursor: Type.Optional(Cursor),
});
type ConditionsQuery = Static<typeof ConditionsQuery>;

export async function conditionRoutes(app: FastifyInstance, ctx: RouteContext): Promise<void> {
  getRoute(app, ctx, {
    url: '/v3/reference/conditions',
    operationId: 'ListConditions',
    summary: 'Condition codes',
    description: 'Trade and quote condition codes with their SIP mappings and bar update rules.',
    tags: ['Reference'],
    dataset: 'reference',
    market: 'stocks',
    querystring: ConditionsQuery,
    response: ListBody(Condition),
    cacheKey: requestCacheKey(ctx),
    handler: ({ query, req }) =>
      listPage(ctx, req, query, {
        family: 'conditions',
        read: (q: ConditionsQuery, page) => ctx.services.reference.conditions(q, page),
        // Upstream writes legacy and sip_mapping on every condition (false, {} when none applies).
        present: (rows) => rows.map((r) => ({ ...r.record, legacy: r.record.legacy ?? false, sip_mapping: r.record.sip_mapping ?? {} })),
      }),
  });
}
