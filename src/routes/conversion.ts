import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { RouteContext } from '../server/context.js';
import { Conversion } from '../domain/conversion-schema.js';
import { notFound } from '../domain/errors.js';
import { getRoute } from '../server/route.js';
import { snapshotClock } from './snapshots.js';

const Currency = (example: string) =>
  Type.String({ pattern: '^[A-Za-z0-9]{2,12}$', description: `a currency code such as ${example}` });

const ConversionBody = Type.Object({ status: Type.String(), request_id: Type.String(), ...Conversion.properties });

export async function conversionRoutes(app: FastifyInstance, ctx: RouteContext): Promise<void> {
  getRoute(app, ctx, {
    url: '/v1/conversion/:from/:to',
    operationId: 'GetCurrencyConversion',
    summary: 'Currency conversion',
    description:
      'Converts `amount` of `from` into `to` at the latest stored quote: the pair itself, its inverse, or a cross through USD. ' +
      'The rate is the ask of from/to (1/bid of an inverse quote); `converted` is rounded half up to `precision` decimals. ' +
      '`last` and `symbol` are the quote used. 404 when no route exists.',
    tags: ['Forex'],
    dataset: 'nbbo',
    market: 'fx',
    params: Type.Object({ from: Currency('AUD'), to: Currency('USD') }),
    querystring: Type.Object({
      amount: Type.Number({ minimum: 0, maximum: 1e15, default: 1 }),
      precision: Type.Integer({ minimum: 0, maximum: 10, default: 2 }),
    }),
    response: ConversionBody,
    handler: async ({ params, query, req }) => {
      const result = await ctx.services.conversion.convert({
        from: params.from.toUpperCase(),
        to: params.to.toUpperCase(),
        amount: query.amount,
        precision: query.precision,
        atMs: snapshotClock(ctx, req),
      });
      if (!result) throw notFound(`No quote converts ${params.from.toUpperCase()} to ${params.to.toUpperCase()}, directly, inversely or through USD.`);
      return { status: 'success', ...result };
    },
  });
}
