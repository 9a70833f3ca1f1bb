import { Type, type Static, type TOptional, type TSchema } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RouteContext } from '../server/context.js';
import { notFound } from '../domain/errors.js';
import { listPage } from '../server/pagination.js';
import { getRoute } from '../server/route.js';
import { Cursor, DateString, Limit, ListBody, Order, SingleBody, StringEnum } from '../server/schemas.js';
import { CHAIN_SORT_FIELDS, CONTRACT_SORT_FIELDS, contractToWire, RANGE_SUFFIXES, type SnapshotView } from '../services/options.js';
import { OptionSnapshot } from '../domain/snapshot-schemas.js';
import { snapshotTime, visibleTicks } from './snapshots.js';

const OptionsContract = Type.Object({
  ticker: Type.String(),
  underlying_ticker: Type.String(),
  contract_type: Type.String(),
  exercise_style: Type.String(),
  expiration_date: Type.String(),
  strike_price: Type.Number(),
  shares_per_contract: Type.Number(),
  primary_exchange: Type.Optional(Type.String()),
  cfi: Type.Optional(Type.String()),
  correction: Type.Optional(Type.Integer()),
  additional_underlyings: Type.Optional(
    Type.Array(Type.Object({ type: Type.String(), underlying: Type.String(), amount: Type.Number() })),
  ),
});

/** `name` and its `.gt/.gte/.lt/.lte` forms as query properties sharing one schema. */
function rangeParams<N extends string, S extends TSchema>(name: N, schema: () => S): Record<N | `${N}.${(typeof RANGE_SUFFIXES)[number]}`, TOptional<S>> {
  const optional = () => Type.Optional(schema()) as unknown as TOptional<S>;
  const out: Record<string, TOptional<S>> = { [name]: optional() };
  for (const s of RANGE_SUFFIXES) out[`${name}.${s}`] = optional();
  return out as Record<N | `${N}.${(typeof RANGE_SUFFIXES)[number]}`, TOptional<S>>;
}

const SymbolText = () => Type.String({ minLength: 1, maxLength: 32, description: 'a ticker symbol' });
const Strike = () => Type.Number({ minimum: 0 });

const ContractsQuery = Type.Object({
  ...rangeParams('underlying_ticker', SymbolText),
  ticker: Type.Optional(Type.String({ minLength: 1, maxLength: 40, description: 'an option ticker such as O:SPY251219C00650000' })),
  contract_type: Type.Optional(StringEnum(['call', 'put'] as const)),
  ...rangeParams('expiration_date', DateString),
  as_of: Type.Optional(DateString()),
  ...rangeParams('strike_price', Strike),
  expired: Type.Boolean({ default: false }),
  order: Order('asc'),
  limit: Limit(10, 1000),
  sort: StringEnum(CONTRACT_SORT_FIELDS, { default: 'ticker' }),
  cursor: Type.Optional(Cursor),
});
type ContractsQuery = Static<typeof ContractsQuery>;

const ContractParams = Type.Object({
  options_ticker: Type.String({ minLength: 1, maxLength: 40, description: 'an option ticker such as O:SPY251219C00650000' }),
});

const ChainQuery = Type.Object({
  ...rangeParams('strike_price', Strike),
  ...rangeParams('expiration_date', DateString),
  contract_type: Type.Optional(StringEnum(['call', 'put'] as const)),
  order: Order('asc'),
  limit: Limit(10, 250),
  sort: StringEnum(CHAIN_SORT_FIELDS, { default: 'ticker' }),
  cursor: Type.Optional(Cursor),
});
type ChainQuery = Static<typeof ChainQuery> & { underlying?: string };

const ChainParams = Type.Object({ underlyingAsset: SymbolText() });
const ContractSnapshotParams = Type.Object({
  underlyingAsset: SymbolText(),
  optionContract: Type.String({ minLength: 1, maxLength: 40, description: 'an option ticker such as O:AAPL230616C00150000' }),
});

function snapshotView(req: FastifyRequest, timeframe: SnapshotView['timeframe']): SnapshotView {
  return { ...visibleTicks(req), timeframe };
}

export async function optionsRoutes(app: FastifyInstance, ctx: RouteContext): Promise<void> {
  const options = ctx.services.options;

  getRoute(app, ctx, {
    url: '/v3/reference/options/contracts',
    operationId: 'ListOptionsContracts',
    summary: 'Options contracts',
    description: 'Option contracts, active or expired as of `as_of` (default today, New York time), filtered and keyset-paginated.',
    tags: ['Options'],
    dataset: 'reference',
    market: 'options',
    querystring: ContractsQuery,
    response: ListBody(OptionsContract),
    handler: ({ query, req }) =>
      listPage(ctx, req, query, {
        family: 'options-contracts',
        firstQuery: (q: ContractsQuery) => options.firstContractsQuery(q),
        read: (q, page) => options.contracts(q, page),
        present: (rows) => rows.map(contractToWire),
      }),
  });

  getRoute(app, ctx, {
    url: '/v3/reference/options/contracts/:options_ticker',
    operationId: 'GetOptionsContract',
    summary: 'Options contract',
    description: 'One option contract by its OCC ticker (with or without the `O:` prefix).',
    tags: ['Options'],
    dataset: 'reference',
    market: 'options',
    params: ContractParams,
    querystring: Type.Object({ as_of: Type.Optional(DateString()) }),
    response: SingleBody(OptionsContract),
    handler: async ({ params, query }) => {
      const results = await options.contract(params.options_ticker, query.as_of);
      if (!results) throw notFound('Option contract not found.');
      return { results };
    },
  });

  getRoute(app, ctx, {
    url: '/v3/snapshot/options/:underlyingAsset',
    operationId: 'GetOptionsChain',
    summary: 'Option chain snapshot',
    description: 'Every unexpired contract on an underlying with its day bar, last quote and trade, open interest, ' +
      'and Black–Scholes–Merton implied volatility and greeks (see docs/options-model.md), as of now.',
    tags: ['Options', 'Snapshots'],
    dataset: 'snapshots',
    market: 'options',
    params: ChainParams,
    querystring: ChainQuery,
    response: ListBody(OptionSnapshot),
    handler: ({ params, query, req }) => {
      const underlying = params.underlyingAsset;
      const { nowMs, timeframe } = snapshotTime(ctx, req);
      return listPage(ctx, req, query, {
        family: 'options-chain',
        firstQuery: (q: ChainQuery) => ({ ...q, underlying }),
        read: (q, page) => options.chain(underlying, q, page, nowMs),
        present: (rows) => options.chainSnapshots(underlying, rows, nowMs, snapshotView(req, timeframe)),
      });
    },
  });

  getRoute(app, ctx, {
    url: '/v3/snapshot/options/:underlyingAsset/:optionContract',
    operationId: 'GetOptionContract',
    summary: 'Option contract snapshot',
    description: 'One contract of the chain (see the chain snapshot).',
    tags: ['Options', 'Snapshots'],
    dataset: 'snapshots',
    market: 'options',
    params: ContractSnapshotParams,
    response: SingleBody(OptionSnapshot),
    handler: async ({ params, req }) => {
      const { nowMs, timeframe } = snapshotTime(ctx, req);
      const results = await options.contractSnapshot(params.underlyingAsset, params.optionContract, nowMs, snapshotView(req, timeframe));
      if (!results) throw notFound('Option contract not found.');
      return { results };
    },
  });
}
