// Summaries of named tickers across asset classes (services/summaries.ts).
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { OptionDetails, Session } from '../domain/universal-snapshot-schema.js';
import type { RouteContext } from '../server/context.js';
import { getRoute } from '../server/route.js';
import { MAX_UNIVERSAL_TICKERS } from '../services/universal-snapshot.js';
import { universalRequest } from './universal-snapshot.js';

const Summary = Type.Object({
  ticker: Type.String(),
  error: Type.Optional(Type.String()),
  message: Type.Optional(Type.String()),
  name: Type.Optional(Type.String()),
  type: Type.Optional(Type.String()),
  market_status: Type.Optional(Type.String()),
  price: Type.Optional(Type.Number()),
  last_updated: Type.Optional(Type.Unsafe<bigint>(Type.Integer())),
  session: Type.Optional(Session),
  options: Type.Optional(OptionDetails),
});

export async function summaryRoutes(app: FastifyInstance, ctx: RouteContext): Promise<void> {
  getRoute(app, ctx, {
    url: '/v1/summaries',
    operationId: 'GetSummaries',
    summary: 'Summaries',
    description:
      `One summary per ticker of \`ticker.any_of\` (up to ${MAX_UNIVERSAL_TICKERS}; stocks, options, forex, crypto, indices), in the order asked for, from the universal snapshot at the same clock: ` +
      '`price` = the last trade (indices: the value; else the day close), `session` = the day and its change since the previous close, `options` = the contract terms. ' +
      'Unknown tickers come back as `{error: "NOT_FOUND"}` items, those of markets the plan lacks as `NOT_ENTITLED` items.',
    tags: ['Snapshots'],
    dataset: 'snapshots',
    querystring: Type.Object({
      'ticker.any_of': Type.String({ minLength: 1, maxLength: 20_000, description: `a comma-separated list of up to ${MAX_UNIVERSAL_TICKERS} tickers` }),
    }),
    response: Type.Object({ status: Type.String(), request_id: Type.String(), results: Type.Array(Summary) }),
    handler: async ({ query, req }) => ({ results: await ctx.services.summaries.summaries(query['ticker.any_of'], universalRequest(ctx, req)) }),
  });
}
