import { describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/index.js';
import { EU_MERCHANT_AGGREGATES, EU_MERCHANT_HIERARCHY, LABOR_MARKET } from '../../src/store/repos/economy-catalog.js';
import { useSeededApps } from '../helpers/app-fixture.js';
import { wrappedRejection } from '../helpers/bad-request.js';
import { engines } from '../helpers/engines.js';

const spend = (name: string, transaction_date: string, user_country: string, consumer_type: string, total_spend: number) => ({
  name, transaction_date, user_country, consumer_type, channel: 'online', type: 'merchant', total_spend, parent_name: name === 'asda' ? 'Asda Stores' : 'Amazon Inc',
});

async function seed(store: Store): Promise<void> {
  await store.datasets.upsert(LABOR_MARKET, [
    { date: '2024-10-01', unemployment_rate: 4.1, job_openings: 7800 },
    { date: '2024-11-01', unemployment_rate: 4.2, job_openings: 8000 },
    { date: '2024-12-01', unemployment_rate: 4.0, job_openings: 8098 },
  ]);
  await store.datasets.upsert(EU_MERCHANT_AGGREGATES, [
    spend('amazon', '2026-01-18', 'UK', 'open_banking', 100),
    spend('amazon', '2026-01-18', 'DE', 'consumer_debit', 80),
    spend('asda', '2026-01-17', 'UK', 'consumer_debit', 50),
    // the same dimensions again: a correction that replaces the first amazon/UK row
    spend('amazon', '2026-01-18', 'UK', 'open_banking', 120),
  ]);
  await store.datasets.upsert(EU_MERCHANT_HIERARCHY, [
    { lookup_name: 'amazon', listing_status: 'public', ticker: 'AMZN US', active_from: '0001-01-01', active_to: '9999-12-31' },
    { lookup_name: 'asda', listing_status: 'private', active_from: '2021-02-16', active_to: '9999-12-31' },
  ]);
}

for (const engine of engines()) {
  describe(`labor market and EU consumer spending (${engine.name})`, () => {
    const { apps: [t, advanced] } = useSeededApps(engine, seed, {}, { plan: 'advanced' });
    const rejects = wrappedRejection(t);
    const field = async (url: string, name: string) => {
      const res = await t.get(url);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.data.results.map((r: any) => r[name]);
    };

    it('lists the labor market oldest first, filtered and sorted', async () => {
      expect(await field('/fed/v1/labor-market', 'date')).toEqual(['2024-10-01', '2024-11-01', '2024-12-01']);
      expect(await field('/fed/v1/labor-market?date.gte=2024-11-01&sort=unemployment_rate.asc', 'job_openings')).toEqual([8098, 8000]);
    });

    it('filters merchant aggregates by country, consumer type and merchant; a corrected row replaces the old one', async () => {
      expect(await field('/consumer-spending/eu/v1/merchant-aggregates?sort=transaction_date.desc,total_spend.desc', 'total_spend')).toEqual([120, 80, 50]);
      expect(await field('/consumer-spending/eu/v1/merchant-aggregates?user_country=UK', 'name')).toEqual(['amazon', 'asda']);
      expect(await field('/consumer-spending/eu/v1/merchant-aggregates?consumer_type.any_of=consumer_debit&name=amazon', 'user_country')).toEqual(['DE']);
      expect(await field('/consumer-spending/eu/v1/merchant-aggregates?transaction_date.lt=2026-01-18', 'name')).toEqual(['asda']);
      expect(await field('/consumer-spending/eu/v1/merchant-aggregates?parent_name=Amazon%20Inc&sort=total_spend.asc', 'total_spend')).toEqual([80, 120]);
      const res = await t.get('/consumer-spending/eu/v1/merchant-aggregates?limit=1');
      expect(res.body.data.results[0]).not.toHaveProperty('aggregate_id');
    });

    it('lists the merchant hierarchy by lookup name and listing status', async () => {
      expect(await field('/consumer-spending/eu/v1/merchant-hierarchy', 'lookup_name')).toEqual(['amazon', 'asda']);
      expect(await field('/consumer-spending/eu/v1/merchant-hierarchy?listing_status=private', 'lookup_name')).toEqual(['asda']);
      expect(await field('/consumer-spending/eu/v1/merchant-hierarchy?active_from.gt=2000-01-01', 'lookup_name')).toEqual(['asda']);
    });

    it('refuses values outside the enumerations, and sells consumer spending apart from economy', async () => {
      await rejects('/consumer-spending/eu/v1/merchant-aggregates?user_country=US', /user_country/);
      await rejects('/consumer-spending/eu/v1/merchant-aggregates?channel.any_of=online,phone', /^channel\.any_of must be a comma-separated list of at most 1000 values from online, offline, bnpl/);
      await rejects('/consumer-spending/eu/v1/merchant-aggregates?limit=5002', 'limit must be an integer from 1 to 5001');
      expect((await advanced.get('/fed/v1/labor-market')).status).toBe(200);
      const refused = await advanced.get('/consumer-spending/eu/v1/merchant-hierarchy');
      expect(refused.status).toBe(403);
      expect(refused.body.data.message).toMatch(/advanced plan does not include consumer-spending data/);
    });
  });
}
