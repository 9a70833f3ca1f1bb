// Last trade and last quote (spec §4.8, §4.9, §4.14 and the crypto last trade): the latest
// stored tick of a ticker, 404 when there is none.
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { marketOfTicker, normalizeTicker } from '../domain/ticker-market.js';
import type { QuoteRow, TradeRow } from '../domain/market-records.js';
import type { ServerContext } from '../server/context.js';
import { notFound } from '../domain/errors.js';
import { getRoute } from '../server/route.js';

const Ns = Type.Integer(); // bigint values, written as bare integers
const NS_PER_MS = 1_000_000n;

const LastTrade = Type.Object({
  c: Type.Optional(Type.Array(Type.Integer())),
  i: Type.String(),
  p: Type.Number(),
  s: Type.Number(),
  ds: Type.Optional(Type.String()),
  x: Type.Integer(),
  e: Type.Optional(Type.Integer()),
  r: Type.Optional(Type.Integer()),
  z: Type.Optional(Type.Integer()),
  T: Type.String(),
  t: Ns,
  y: Type.Optional(Ns),
  f: Type.Optional(Ns),
  q: Type.Optional(Ns),
});

const LastQuote = Type.Object({
  p: Type.Number(),
  s: Type.Optional(Type.Number()),
  x: Type.Optional(Type.Integer()),
  P: Type.Number(),
  S: Type.Optional(Type.Number()),
  X: Type.Optional(Type.Integer()),
  c: Type.Optional(Type.Array(Type.Integer())),
  i: Type.Optional(Type.Array(Type.Integer())),
  z: Type.Optional(Type.Integer()),
  T: Type.String(),
  t: Ns,
  y: Type.Optional(Ns),
  f: Type.Optional(Ns),
  q: Type.Optional(Ns),
});

const ResultBody = <T extends ReturnType<typeof Type.Object>>(item: T) =>
  Type.Object({ results: item, status: Type.String(), request_id: Type.String() });

const ForexLastBody = Type.Object({
  status: Type.String(),
  request_id: Type.String(),
  symbol: Type.String(),
  last: Type.Object({ ask: Type.Number(), bid: Type.Number(), exchange: Type.Integer(), timestamp: Type.Integer() }),
});

const CryptoLastBody = Type.Object({
  status: Type.String(),
  request_id: Type.String(),
  symbol: Type.String(),
  last: Type.Object({
    conditions: Type.Optional(Type.Array(Type.Integer())),
    exchange: Type.Integer(),
    price: Type.Number(),
    size: Type.Number(),
    timestamp: Type.Integer(),
  }),
});

const nonEmpty = (codes: number[] | undefined) => (codes && codes.length ? codes : undefined);

/** §3.5; options carry no decimal size and no tape. */
function lastTradeToWire(ticker: string, r: TradeRow) {
  const stocks = marketOfTicker(ticker) === 'stocks';
  return {
    c: nonEmpty(r.conditions),
    i: r.id ?? '',
    p: r.price,
    s: r.size,
    ds: stocks ? String(r.size) : undefined,
    x: r.exchange,
    e: r.correction,
    r: r.trf_id,
    z: stocks ? r.tape : undefined,
    T: ticker,
    t: r.sip_timestamp,
    y: r.participant_timestamp,
    f: r.trf_timestamp,
    q: r.sequence_number,
  };
}

/** §3.6 */
function lastQuoteToWire(ticker: string, r: QuoteRow) {
  return {
    p: r.bid_price,
    s: r.bid_size,
    x: r.bid_exchange,
    P: r.ask_price,
    S: r.ask_size,
    X: r.ask_exchange,
    c: nonEmpty(r.conditions),
    i: nonEmpty(r.indicators),
    z: r.tape,
    T: ticker,
    t: (r.sip_timestamp ?? r.participant_timestamp)!,
    y: r.participant_timestamp,
    f: r.trf_timestamp,
    q: r.sequence_number,
  };
}

const msOf = (ns: bigint | undefined) => (ns === undefined ? 0 : Number(ns / NS_PER_MS));

const tickerMarket = (req: FastifyRequest) => marketOfTicker((req.params as { ticker?: string }).ticker ?? '');
const TickerParams = Type.Object({ ticker: Type.String({ minLength: 1, maxLength: 64, description: 'a ticker symbol' }) });
const PairParams = Type.Object({
  from: Type.String({ pattern: '^[A-Za-z0-9]{1,12}$', description: 'a currency symbol such as EUR' }),
  to: Type.String({ pattern: '^[A-Za-z0-9]{1,12}$', description: 'a currency symbol such as USD' }),
});

export async function lastTickRoutes(app: FastifyInstance, ctx: ServerContext): Promise<void> {
  getRoute(app, ctx, {
    url: '/v2/last/trade/:ticker',
    operationId: 'GetLastTrade',
    summary: 'Last trade',
    description: 'The most recent trade of a stock or option contract (`O:`). 404 when none is stored.',
    tags: ['Trades & quotes'],
    dataset: 'trades',
    market: tickerMarket,
    params: TickerParams,
    response: ResultBody(LastTrade),
    handler: async ({ params }) => {
      const ticker = normalizeTicker(params.ticker);
      const row = await ctx.store.market.lastTrade(ticker);
      if (!row) throw notFound('Trade not found.');
      return { results: lastTradeToWire(params.ticker, row) };
    },
  });

  getRoute(app, ctx, {
    url: '/v2/last/nbbo/:ticker',
    aliases: ['/v2/stocks/last/:ticker'],
    operationId: 'GetLastQuote',
    summary: 'Last quote (NBBO)',
    description: 'The most recent NBBO quote of a stock. `/v2/stocks/last/{ticker}` is the same operation. 404 when none is stored.',
    tags: ['Trades & quotes'],
    dataset: 'nbbo',
    market: tickerMarket,
    params: TickerParams,
    response: ResultBody(LastQuote),
    handler: async ({ params }) => {
      const ticker = normalizeTicker(params.ticker);
      const row = await ctx.store.market.lastQuote(ticker);
      if (!row) throw notFound('Quote not found.');
      return { results: lastQuoteToWire(params.ticker, row) };
    },
  });

  getRoute(app, ctx, {
    url: '/v1/last_quote/currencies/:from/:to',
    operationId: 'GetLastCurrencyQuote',
    summary: 'Last quote, currency pair',
    description: 'The most recent quote of the forex pair `C:{from}{to}`; `last.timestamp` is in ms. 404 when none is stored.',
    tags: ['Trades & quotes'],
    dataset: 'nbbo',
    market: 'fx',
    params: PairParams,
    response: ForexLastBody,
    handler: async ({ params }) => {
      const [from, to] = [params.from.toUpperCase(), params.to.toUpperCase()];
      const row = await ctx.store.market.lastQuote(`C:${from}${to}`);
      if (!row) throw notFound('Quote not found.');
      return {
        status: 'success',
        symbol: `${from}/${to}`,
        last: {
          ask: row.ask_price,
          bid: row.bid_price,
          exchange: row.ask_exchange ?? row.bid_exchange ?? 0,
          timestamp: msOf(row.participant_timestamp ?? row.sip_timestamp),
        },
      };
    },
  });

  getRoute(app, ctx, {
    url: '/v1/last/crypto/:from/:to',
    operationId: 'GetLastCryptoTrade',
    summary: 'Last trade, crypto pair',
    description: 'The most recent trade of the crypto pair `X:{from}{to}`; `last.timestamp` is in ms. 404 when none is stored.',
    tags: ['Trades & quotes'],
    dataset: 'trades',
    market: 'crypto',
    params: PairParams,
    response: CryptoLastBody,
    handler: async ({ params }) => {
      const [from, to] = [params.from.toUpperCase(), params.to.toUpperCase()];
      const row = await ctx.store.market.lastTrade(`X:${from}${to}`);
      if (!row) throw notFound('Trade not found.');
      return {
        status: 'success',
        symbol: `${from}-${to}`,
        last: {
          conditions: nonEmpty(row.conditions),
          exchange: row.exchange,
          price: row.price,
          size: row.size,
          timestamp: msOf(row.participant_timestamp ?? row.sip_timestamp),
        },
      };
    },
  });
}
