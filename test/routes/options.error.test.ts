import { describe, expect, it } from 'vitest';
import { engines } from '../helpers/engines.js';
import { referenceContracts } from '../helpers/options-fixture.js';
import { useSeededApp } from '../helpers/app-fixture.js';
import { expectNativeRejection } from '../helpers/bad-request.js';

const CLOCK = Date.parse('2026-11-19T16:00:00Z');

for (const engine of engines()) {
  describe(`options endpoints: bad requests and missing resources (${engine.name})`, () => {
    const { t } = useSeededApp(engine, (store) => store.options.upsertContracts(referenceContracts()), { envelope: 'native', now: () => CLOCK });

    it.each([
      ['/v3/reference/options/contracts?limit=0', 'limit must be an integer from 1 to 1000'],
      ['/v3/reference/options/contracts?limit=1001', 'limit must be an integer from 1 to 1000'],
      ['/v3/reference/options/contracts?contract_type=straddle', 'contract_type must be one of: call, put'],
      ['/v3/reference/options/contracts?expiration_date=2026-02-30', 'expiration_date must be a real date in the form YYYY-MM-DD'],
      ['/v3/reference/options/contracts?expiration_date.gte=tomorrow', 'expiration_date.gte must be a date in the form YYYY-MM-DD'],
      ['/v3/reference/options/contracts?as_of=2026-13-01', 'as_of must be a real date in the form YYYY-MM-DD'],
      ['/v3/reference/options/contracts?strike_price=abc', 'strike_price must be a number of at least 0'],
      ['/v3/reference/options/contracts?strike_price.lt=-5', 'strike_price.lt must be a number of at least 0'],
      ['/v3/reference/options/contracts?sort=volume', 'sort must be one of: ticker, underlying_ticker, expiration_date, strike_price'],
      ['/v3/reference/options/contracts?order=up', 'order must be one of: asc, desc'],
      ['/v3/reference/options/contracts?expired=maybe', 'expired must be true or false'],
      ['/v3/reference/options/contracts?cursor=abc.def', 'cursor is invalid'],
      ['/v3/reference/options/contracts/O:ZZA261218C00100000?as_of=2026-1-1', 'as_of must be a date in the form YYYY-MM-DD'],
      ['/v3/snapshot/options/ZZA?limit=251', 'limit must be an integer from 1 to 250'],
      ['/v3/snapshot/options/ZZA?sort=underlying_ticker', 'sort must be one of: ticker, expiration_date, strike_price'],
      ['/v3/snapshot/options/ZZA?strike_price.gte=x', 'strike_price.gte must be a number of at least 0'],
      ['/v3/snapshot/options/ZZA?expiration_date.lt=2026-11-31', 'expiration_date.lt must be a real date in the form YYYY-MM-DD'],
    ])('%s → 400 naming the parameter', (url, message) => expectNativeRejection(t, url, message, 'contains'));

    it('a cursor is bound to its endpoint and to its underlying', async () => {
      const contracts = await t.get('/v3/reference/options/contracts?limit=2');
      const cursor = new URL(contracts.body.next_url).searchParams.get('cursor')!;
      expect((await t.get(`/v3/snapshot/options/ZZA?cursor=${cursor}`)).status).toBe(400);

      const chain = await t.get('/v3/snapshot/options/ZZA?limit=2');
      const chainCursor = new URL(chain.body.next_url).searchParams.get('cursor')!;
      expect((await t.get(`/v3/snapshot/options/ZZA?cursor=${chainCursor}`)).status).toBe(200);
      const other = await t.get(`/v3/snapshot/options/ZZB?cursor=${chainCursor}`);
      expect(other.status).toBe(400);
      expect(other.body.error).toContain('another underlyingAsset');
    });

    it('an edited cursor is refused, not served', async () => {
      const first = await t.get('/v3/reference/options/contracts?limit=2');
      const cursor = new URL(first.body.next_url).searchParams.get('cursor')!;
      const [body, mac] = cursor.split('.') as [string, string];
      const payload = JSON.parse(Buffer.from(body, 'base64url').toString());
      payload.q.limit = 1000;
      const forged = `${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${mac}`;
      expect((await t.get(`/v3/reference/options/contracts?cursor=${forged}`)).status).toBe(400);
    });

    it('unknown contracts are 404 NOT_FOUND, also before their listing date', async () => {
      for (const url of [
        '/v3/reference/options/contracts/O:ZZA261218C00999000',
        '/v3/reference/options/contracts/NOTATICKER',
        '/v3/reference/options/contracts/O:ZZA261218C00100000?as_of=2026-08-01',
        '/v3/snapshot/options/ZZA/O:ZZA261218C00999000',
        '/v3/snapshot/options/ZZB/O:ZZA261218C00100000', // belongs to another underlying
      ]) {
        const res = await t.get(url);
        expect(res.status, url).toBe(404);
        expect(res.body.status).toBe('NOT_FOUND');
        expect(res.body.message).toBe('Option contract not found.');
      }
    });

    it('an underlying without contracts has an empty chain, not an error', async () => {
      const res = await t.get('/v3/snapshot/options/NOPE');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ status: 'OK', count: 0, results: [] });
      expect(res.body.next_url).toBeUndefined();
    });
  });
}
