import { describe, expect, it } from 'vitest';
import { walkPages } from '../helpers/app.js';
import { BENZINGA_RATINGS } from '../../src/store/repos/partner-catalog.js';
import { useSeededApp, useSeededApps } from '../helpers/app-fixture.js';
import { engines } from '../helpers/engines.js';
import { seedPartner } from '../helpers/partner-fixture.js';

for (const engine of engines()) {
  describe(`partner data sets (${engine.name})`, () => {
    const { apps: [t, advanced, business] } = useSeededApps(engine, seedPartner, {}, { plan: 'advanced' }, { plan: 'business' });

    const field = async (url: string, name: string) => {
      const res = await t.get(url);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.data.results.map((r: any) => r[name]);
    };
    const ids = (url: string) => field(url, 'benzinga_id');

    it('lists Benzinga news newest first, times in UTC, and the stocks filter hidden from records', async () => {
      expect(await ids('/benzinga/v2/news')).toEqual([3, 2, 1]);
      const res = await t.get('/benzinga/v2/news?tickers.all_of=AAPL,MSFT');
      const [two] = res.body.data.results;
      expect(two.published).toBe('2025-05-02T13:30:00Z');
      expect(two).not.toHaveProperty('stocks');
      expect(Object.keys(two)).toEqual(['author', 'benzinga_id', 'channels', 'last_updated', 'published', 'tickers', 'title', 'url']);
    });

    it('filters news by tickers, stocks, channels and tags with spaces, authors and time bounds', async () => {
      expect(await ids('/benzinga/v2/news?tickers=AAPL')).toEqual([2, 1]);
      expect(await ids('/benzinga/v2/news?stocks=MSFT')).toEqual([3, 2]);
      expect(await ids('/benzinga/v2/news?tickers.all_of=AAPL,MSFT')).toEqual([2]);
      expect(await ids('/benzinga/v2/news?channels=Analyst%20Ratings')).toEqual([1]);
      expect(await ids('/benzinga/v2/news?tags.any_of=Movers,Upgrades')).toEqual([3, 1]);
      expect(await ids('/benzinga/v2/news?tags.all_of=Movers,Upgrades')).toEqual([3]);
      expect(await ids('/benzinga/v2/news?author.any_of=B.%20Writer')).toEqual([2]);
      // A bare date is the start of its day; a timestamp with an offset is compared in UTC.
      expect(await ids('/benzinga/v2/news?published.gte=2025-05-02')).toEqual([3, 2]);
      expect(await ids('/benzinga/v2/news?published.lt=2025-05-02T13:30:00Z')).toEqual([1]);
      expect(await ids('/benzinga/v2/news?published.lte=2025-05-02T09:30:00-04:00')).toEqual([2, 1]);
      expect(await ids('/benzinga/v2/news?sort=published.asc&limit=2')).toEqual([1, 2]);
    });

    it('filters and sorts analyst ratings', async () => {
      expect(await ids('/benzinga/v1/ratings')).toEqual(['r2', 'r3', 'r1']);
      expect(await ids('/benzinga/v1/ratings?ticker=AAPL&date.gte=2025-02-01')).toEqual(['r2']);
      expect(await ids('/benzinga/v1/ratings?importance.gte=3')).toEqual(['r3', 'r1']);
      expect(await ids('/benzinga/v1/ratings?rating_action.any_of=upgrades,downgrades&sort=date.asc')).toEqual(['r1', 'r3']);
      expect(await ids('/benzinga/v1/ratings?last_updated.lt=2025-02-02T12:00:00Z')).toEqual(['r1']);
      const pages = await walkPages(t, '/benzinga/v1/ratings?limit=1&sort=ticker.desc');
      expect(pages.flatMap((p) => p.results.map((r: any) => r.benzinga_id))).toEqual(['r3', 'r1', 'r2']);
    });

    it('lists ETF constituents and TMX events with their filters', async () => {
      expect(await field('/etf-global/v1/constituents?composite_ticker=SPY&effective_date=2025-06-30&sort=constituent_rank.desc', 'constituent_ticker')).toEqual(['NVDA', 'MSFT', 'AAPL']);
      expect(await field('/etf-global/v1/constituents?constituent_ticker=AAPL', 'composite_ticker')).toEqual(['QQQ', 'SPY']);
      expect(await field('/etf-global/v1/constituents?composite_ticker=SPY&effective_date.lt=2025-06-01', 'constituent_ticker')).toEqual(['MSFT']);
      expect(await field('/tmx/v1/corporate-events', 'tmx_record_id')).toEqual(['E2', 'E1']);
      expect(await field('/tmx/v1/corporate-events?tmx_company_id.gte=100', 'ticker')).toEqual(['ROL']);
      expect(await field('/tmx/v1/corporate-events?type.any_of=dividend,split', 'ticker')).toEqual(['RY']);
    });

    it('sells the partner data sets apart from the tiers: advanced is refused, business is served', async () => {
      for (const url of ['/benzinga/v2/news', '/benzinga/v1/ratings', '/etf-global/v1/constituents', '/tmx/v1/corporate-events']) {
        const refused = await advanced.get(url);
        expect(refused.status, url).toBe(403);
        expect(refused.body.data.message).toMatch(/advanced plan does not include (benzinga|etf-global|tmx) data/);
        expect((await business.get(url)).status, url).toBe(200);
      }
    });
  });
}

describe('consensus ratings (every engine)', () => {
  for (const engine of engines()) {
    describe(engine.name, () => {
      const rating = (id: string, analyst: string, date: string, r: string, price_target?: number) => ({
        benzinga_id: id, benzinga_analyst_id: analyst, ticker: 'ACME', date, last_updated: `${date}T12:00:00Z`, rating: r, ...(price_target === undefined ? {} : { price_target }),
      });
      const { t } = useSeededApp(engine, async (store) => {
        await store.datasets.upsert(BENZINGA_RATINGS, [
          rating('c1', 'a1', '2025-01-10', 'Buy', 50),
          rating('c2', 'a1', '2025-03-01', 'Strong Buy', 60), // a1's latest: strong buy at 60
          rating('c3', 'a2', '2025-02-01', 'Neutral', 40),
          rating('c4', 'a3', '2025-02-15', 'Underperform'),
          rating('c5', 'a4', '2024-12-01', 'Outperform', 45),
          rating('c6', 'a4', '2025-02-20', 'Not Rated'), // a4 dropped coverage: no longer counted
          { ...rating('c7', 'a9', '2025-02-01', 'Sell', 10), ticker: 'OTHER' },
        ]);
      });

      it('counts each analyst once, by their latest rating and price target', async () => {
        const res = await t.get('/benzinga/v1/consensus-ratings/ACME');
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        expect(res.body.data.results).toEqual([{
          ticker: 'ACME', strong_buy_ratings: 1, buy_ratings: 0, hold_ratings: 1, sell_ratings: 1, strong_sell_ratings: 0,
          ratings_contributors: 3, price_target_contributors: 3,
          // (5 + 3 + 2) / 3
          consensus_rating_value: 3.33, consensus_rating: 'hold',
          // a1 60, a2 40, a4 45 (a4's latest with a price target)
          consensus_price_target: 48.33, high_price_target: 60, low_price_target: 40,
        }]);
      });

      it('aggregates only the ratings in the date range, and nothing for an unrated ticker', async () => {
        const res = await t.get('/benzinga/v1/consensus-ratings/ACME?date.lt=2025-02-01');
        expect(res.body.data.results).toEqual([{
          ticker: 'ACME', strong_buy_ratings: 0, buy_ratings: 2, hold_ratings: 0, sell_ratings: 0, strong_sell_ratings: 0,
          ratings_contributors: 2, price_target_contributors: 2, consensus_rating_value: 4, consensus_rating: 'buy',
          consensus_price_target: 47.5, high_price_target: 50, low_price_target: 45,
        }]);
        const none = await t.get('/benzinga/v1/consensus-ratings/NOPE');
        expect(none.status).toBe(200);
        expect(none.body.data).toMatchObject({ count: 0, results: [] });
        const bad = await t.get('/benzinga/v1/consensus-ratings/ACME?date.gte=soon');
        expect(bad.status).toBe(400);
        expect(bad.body.data.message).toMatch(/^date\.gte must be a (real )?date in the form YYYY-MM-DD$/);
      });
    });
  }
});
