// Last trade and last quote: the latest stored tick of a ticker or currency pair, 404 when there
// is none.
import { Type, type TObject } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { notFound } from '../domain/errors.js';
import { CryptoLast, ForexLast, LastQuote, LastTrade } from '../domain/tick-schemas.js';
import { marketOfTicker } from '../domain/ticker-market.js';
import type { RouteContext } from '../server/context.js';
import { getRoute } from '../server/route.js';

const ResultBody = (item: TObject) => Type.Object({ results: item, status: Type.String(), request_id: Type.String() });
const PairBody = (last: TObject) => Type.Object({ status: Type.String(), request_id: Type.String(), symbol: Type.String(), last });

const tickerMarket = (req: FastifyRequest) => marketOfTicker((req.params as { ticker?: string }).ticker ?? '');
const TickerParams = Type.Object({ ticker: Type.String({ minLength: 1, maxLength: 64, description: 'a ticker symbol' }) });
const PairParams = Type.Object({
  from: Type.String({ pattern: '^[A-Za-z0-9]{1,12}$', description: 'a currency symbol such as EUR' }),
  to: Type.String({ pattern: '^[A-Za-z0-9]{1,12}$', description: 'a currency symbol such as USD' }),
});

export async function lastTickRoutes(app: FastifyInstance, ctx: RouteContext): Promise<void> {
  const ticks = ctx.services.lastTicks;

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
      const results = await ticks.trade(params.ticker);
      if (!results) throw notFound('Trade not found.');
      return { results };
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
      const results = await ticks.quote(params.ticker);
      if (!results) throw notFound('Quote not found.');
      return { results };
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
    response: PairBody(ForexLast),
    handler: async ({ params }) => {
      const [from, to] = [params.from.toUpperCase(), params.to.toUpperCase()];
      const last = await ticks.currencyQuote(from, to);
      if (!last) throw notFound('Quote not found.');
      return { status: 'success', symbol: `${from}/${to}`, last };
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
    response: PairBody(CryptoLast),
    handler: async ({ params }) => {
      const [from, to] = [params.from.toUpperCase(), params.to.toUpperCase()];
      const last = await ticks.cryptoTrade(from, to);
      if (!last) throw notFound('Trade not found.');
      return { status: 'success', symbol: `${from}-${to}`, last };
    },
  });
}
