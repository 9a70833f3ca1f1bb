import { Type, type Static, type TOptional, type TSchema } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { nyDateOf } from '../domain/calendar.js';
import type { ServerContext } from '../server/context.js';
import { badParameter, notFound } from '../domain/errors.js';
import { finishPage, pagedQuery } from '../server/pagination.js';
import { getRoute } from '../server/route.js';
import { Cursor, DateString, Limit, ListBody, Order, SingleBody, StringEnum } from '../server/schemas.js';
import { CONTRACT_SORT_FIELDS, type OptionsContractRecord, type RangeFilter } from '../store/repos/options.js';
import { chainContracts, optionSnapshots, CHAIN_SORT_FIELDS } from '../services/options-chain.js';
import { parseCalendarDate } from '../services/dates.js';
import { OptionSnapshot } from '../domain/snapshot-schemas.js';
import { snapshotClock, visibleTicks } from './snapshots.js';

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

const RANGE_SUFFIXES = ['gt', 'gte', 'lt', 'lte'] as const;

/** `name` and its `.gt/.gte/.lt/.lte` forms as query properties sharing one schema. */
function rangeParams<N extends string, S extends TSchema>(name: N, schema: () => S): Record<N | `${N}.${(typeof RANGE_SUFFIXES)[number]}`, TOptional<S>> {
  const optional = () => Type.Optional(schema()) as unknown as TOptional<S>;
  const out: Record<string, TOptional<S>> = { [name]: optional() };
  for (const s of RANGE_SUFFIXES) out[`${name}.${s}`] = optional();
  return out as Record<N | `${N}.${(typeof RANGE_SUFFIXES)[number]}`, TOptional<S>>;
}

/** Reads `name` and its range forms from a validated query; dates are checked to be real days. */
function rangeOf<T extends string | number>(query: Record<string, unknown>, name: string, isDate = false): RangeFilter<T> | undefined {
  const f: RangeFilter<T> = {};
  let any = false;
  for (const [key, prop] of [[name, 'eq'], ...RANGE_SUFFIXES.map((s) => [`${name}.${s}`, s])] as const) {
    const v = query[key];
    if (v === undefined) continue;
    if (isDate) parseCalendarDate(String(v), key);
    (f as Record<string, unknown>)[prop] = v;
    any = true;
  }
  return any ? f : undefined;
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

/** The wire record: everything but the storage-only listing date. */
export function contractToWire(c: OptionsContractRecord): Omit<OptionsContractRecord, 'list_date'> {
  const { list_date: _ld, ...wire } = c;
  return wire;
}

/** Upstream's Python mock asks for contracts without the `O:` prefix; accept both spellings. */
function withOptionPrefix(ticker: string): string {
  return ticker.startsWith('O:') ? ticker : `O:${ticker}`;
}

function snapshotOptions(ctx: ServerContext, req: FastifyRequest, nowMs: number) {
  return { ...visibleTicks(req), timeframe: nowMs < ctx.now() ? ('DELAYED' as const) : ('REAL-TIME' as const), fallbackRate: ctx.config.riskFreeRate };
}

export async function optionsRoutes(app: FastifyInstance, ctx: ServerContext): Promise<void> {
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
    handler: async ({ query: raw, req }) => {
      const { query, after } = pagedQuery<ContractsQuery>(ctx, 'options-contracts', raw);
      if (query.as_of) parseCalendarDate(query.as_of, 'as_of');
      // Fixed on the first page so that later pages answer the same question.
      query.as_of ??= nyDateOf(ctx.now());
      const q = query as Record<string, unknown>;
      const rows = await ctx.store.options.listContracts({
        underlying_ticker: rangeOf<string>(q, 'underlying_ticker'),
        ticker: query.ticker === undefined ? undefined : withOptionPrefix(query.ticker),
        contract_type: query.contract_type,
        expiration_date: rangeOf<string>(q, 'expiration_date', true),
        strike_price: rangeOf<number>(q, 'strike_price'),
        as_of: query.as_of,
        expired: query.expired,
        sort: query.sort,
        order: query.order,
        limit: query.limit + 1,
        after,
      });
      const sort = query.sort;
      const page = finishPage(ctx, req, 'options-contracts', query, query.limit, rows, (r) => ({ value: r[sort], id: r.ticker }));
      const results = page.rows.map(contractToWire);
      return { count: results.length, results, ...(page.next_url ? { next_url: page.next_url } : {}) };
    },
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
      if (query.as_of) parseCalendarDate(query.as_of, 'as_of');
      const contract = await ctx.store.options.getContract(withOptionPrefix(params.options_ticker));
      if (!contract || (query.as_of && contract.list_date && contract.list_date > query.as_of)) {
        throw notFound('Option contract not found.');
      }
      return { results: contractToWire(contract) };
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
    handler: async ({ params, query: raw, req }) => {
      const { query, after } = pagedQuery<ChainQuery>(ctx, 'options-chain', raw);
      if (query.underlying !== undefined && query.underlying !== params.underlyingAsset) {
        throw badParameter('cursor belongs to another underlyingAsset: use the next_url of a previous response unchanged');
      }
      query.underlying = params.underlyingAsset;
      const q = query as Record<string, unknown>;
      const nowMs = snapshotClock(ctx, req);
      const rows = await chainContracts(ctx.store, {
        underlying: params.underlyingAsset,
        strike_price: rangeOf<number>(q, 'strike_price'),
        expiration_date: rangeOf<string>(q, 'expiration_date', true),
        contract_type: query.contract_type,
        sort: query.sort,
        order: query.order,
        limit: query.limit + 1,
        after,
      }, nowMs);
      const sort = query.sort;
      const page = finishPage(ctx, req, 'options-chain', query, query.limit, rows, (r) => ({ value: r[sort], id: r.ticker }));
      const results = await optionSnapshots(ctx.store, params.underlyingAsset, page.rows, nowMs, snapshotOptions(ctx, req, nowMs));
      return { count: results.length, results, ...(page.next_url ? { next_url: page.next_url } : {}) };
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
      const contract = await ctx.store.options.getContract(withOptionPrefix(params.optionContract));
      if (!contract || contract.underlying_ticker !== params.underlyingAsset) throw notFound('Option contract not found.');
      const nowMs = snapshotClock(ctx, req);
      const [results] = await optionSnapshots(ctx.store, params.underlyingAsset, [contract], nowMs, snapshotOptions(ctx, req, nowMs));
      return { results: results! };
    },
  });
}
