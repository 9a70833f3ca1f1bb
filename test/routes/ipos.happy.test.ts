import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import '../../src/ingest/datasets.js';
import { importFile } from '../../src/ingest/load.js';
import type { Store } from '../../src/store/index.js';
import { IPOS } from '../../src/store/repos/listings-catalog.js';
import type { DatasetRecord } from '../../src/store/repos/datasets.js';
import { walkPages } from '../helpers/app.js';
import { useSeededApps } from '../helpers/app-fixture.js';
import { wrappedRejection } from '../helpers/bad-request.js';
import { engines } from '../helpers/engines.js';

// Seven hand-made IPOs, one per status, imported as NDJSON; the expected orders are worked out by hand.
const ipo = (ticker: string, ipo_status: string, rest: DatasetRecord): DatasetRecord => ({
  ticker, ipo_status, issuer_name: `${ticker} Holdings Inc.`, security_type: 'CS', last_updated: '2026-11-01', ...rest,
});

const ROWS: DatasetRecord[] = [
  ipo('HIST', 'history', { listing_date: '2026-06-05', us_code: '000000001', isin: 'US0000000010', final_issue_price: 17, total_offer_size: 136_000_000, lot_size: 100, issue_start_date: '2026-05-28', issue_end_date: '2026-06-04' }),
  ipo('NEWX', 'new', { listing_date: '2026-11-20', us_code: '000000002', isin: 'US0000000020', final_issue_price: 21.5, shares_outstanding: 35_376_457 }),
  ipo('PEND', 'pending', { listing_date: '2026-12-03', us_code: '000000003', lowest_offer_price: 14, highest_offer_price: 16, announced_date: '2026-11-02' }),
  ipo('RUMR', 'rumor', { last_updated: '2026-11-10' }),
  ipo('POST', 'postponed', { listing_date: '2026-10-15', us_code: '000000005' }),
  ipo('WDRN', 'withdrawn', { listing_date: '2026-09-01', us_code: '000000006' }),
  ipo('DLST', 'direct_listing_process', { listing_date: '2026-12-10', us_code: '000000007' }),
];

const dir = mkdtempSync(join(tmpdir(), 'tb-ipos-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function seed(store: Store): Promise<void> {
  const file = join(dir, `ipos-${Math.random().toString(36).slice(2)}.ndjson`);
  writeFileSync(file, ROWS.map((r) => JSON.stringify(r)).join('\n'));
  const result = await importFile(store, file, { dataset: 'ipos' });
  expect(result.rows).toBe(7);
}

for (const engine of engines()) {
  describe(`IPOs, vX and v1 (${engine.name})`, () => {
    const { store, apps: [t] } = useSeededApps(engine, seed, {});
    const rejects = wrappedRejection(t);
    const results = async (url: string) => {
      const res = await t.get(url);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.data.results as any[];
    };
    const tickers = async (url: string) => (await results(url)).map((r) => r.ticker);

    it('vX: latest listing date first by default, IPOs without one last; one sort field with order', async () => {
      expect(await tickers('/vX/reference/ipos')).toEqual(['DLST', 'PEND', 'NEWX', 'POST', 'WDRN', 'HIST', 'RUMR']);
      expect(await tickers('/vX/reference/ipos?order=asc')).toEqual(['HIST', 'WDRN', 'POST', 'NEWX', 'PEND', 'DLST', 'RUMR']);
      expect(await tickers('/vX/reference/ipos?sort=ticker&order=asc')).toEqual(['DLST', 'HIST', 'NEWX', 'PEND', 'POST', 'RUMR', 'WDRN']);
      expect(await tickers('/vX/reference/ipos?sort=last_updated&order=desc&limit=1')).toEqual(['RUMR']);
      expect((await results('/vX/reference/ipos?ticker=HIST'))[0]).toEqual({
        ticker: 'HIST', ipo_status: 'history', issuer_name: 'HIST Holdings Inc.', security_type: 'CS', last_updated: '2026-11-01', listing_date: '2026-06-05',
        us_code: '000000001', isin: 'US0000000010', final_issue_price: 17, total_offer_size: 136_000_000, lot_size: 100, issue_start_date: '2026-05-28', issue_end_date: '2026-06-04',
      });
    });

    it('vX: filters by ticker, identifiers, status and listing-date ranges', async () => {
      expect(await tickers('/vX/reference/ipos?ipo_status=pending')).toEqual(['PEND']);
      expect(await tickers('/vX/reference/ipos?us_code=000000002')).toEqual(['NEWX']);
      expect(await tickers('/vX/reference/ipos?isin=US0000000010')).toEqual(['HIST']);
      expect(await tickers('/vX/reference/ipos?listing_date=2026-11-20')).toEqual(['NEWX']);
      expect(await tickers('/vX/reference/ipos?listing_date.gte=2026-10-15&listing_date.lt=2026-12-10')).toEqual(['PEND', 'NEWX', 'POST']);
      expect(await tickers('/vX/reference/ipos?ticker=NOPE')).toEqual([]);
    });

    it('v1: new-style filters and sorts, listing_date as a date, an RFC 3339 time or Unix ns, no issue dates', async () => {
      expect(await tickers('/v1/reference/ipos?ipo_status.any_of=pending,rumor,new&sort=ticker.asc')).toEqual(['NEWX', 'PEND', 'RUMR']);
      expect(await tickers('/v1/reference/ipos?ticker.gte=P&ticker.lt=R&sort=ticker.desc')).toEqual(['POST', 'PEND']);
      expect(await tickers('/v1/reference/ipos?us_code.any_of=000000005,000000006')).toEqual(['POST', 'WDRN']);
      expect(await tickers('/v1/reference/ipos?isin.any_of=US0000000010,US0000000020')).toEqual(['NEWX', 'HIST']);
      // 2026-11-20T00:00:00Z as ns and as RFC 3339 (a time of day counts as its UTC date)
      expect(await tickers('/v1/reference/ipos?listing_date.gte=1795132800000000000')).toEqual(['DLST', 'PEND', 'NEWX']);
      expect(await tickers('/v1/reference/ipos?listing_date=2026-11-20T15:30:00-05:00')).toEqual(['NEWX']);
      expect(await tickers('/v1/reference/ipos?listing_date.lte=2026-10-15&sort=listing_date.asc')).toEqual(['HIST', 'WDRN', 'POST']);
      const hist = (await results('/v1/reference/ipos?ticker=HIST'))[0];
      expect(hist).toMatchObject({ ticker: 'HIST', final_issue_price: 17, lot_size: 100 });
      expect(hist.issue_start_date).toBeUndefined();
      expect(hist.issue_end_date).toBeUndefined();
      expect(await tickers('/v1/reference/ipos?sort=last_updated.desc,ticker.desc&limit=3')).toEqual(['RUMR', 'WDRN', 'POST']);
    });

    for (const url of ['/vX/reference/ipos?limit=2', '/v1/reference/ipos?limit=2&sort=ticker.asc']) {
      it(`pages to the end: ${url}`, async () => {
        const pages = await walkPages(t, url);
        expect(pages).toHaveLength(4);
        const all = pages.flatMap((p) => p.results.map((r: any) => r.ticker));
        expect(all).toHaveLength(7);
        expect(new Set(all).size).toBe(7);
        expect(pages.at(-1).next_url).toBeUndefined();
      });
    }

    it('refuses bad parameters naming them', async () => {
      await rejects('/vX/reference/ipos?limit=1001', /^limit /);
      await rejects('/vX/reference/ipos?ipo_status=listed', /^ipo_status /);
      await rejects('/vX/reference/ipos?sort=colour', /^sort /);
      await rejects('/vX/reference/ipos?order=up', /^order /);
      await rejects('/vX/reference/ipos?listing_date.gt=2026-13-01', /^listing_date\.gt /);
      await rejects('/v1/reference/ipos?limit=0', /^limit /);
      await rejects('/v1/reference/ipos?listing_date.gte=soon', 'listing_date.gte must be a date (YYYY-MM-DD), an RFC 3339 time or Unix nanoseconds');
      await rejects('/v1/reference/ipos?listing_date=2026-02-30', /^listing_date /);
      await rejects('/v1/reference/ipos?ipo_status.any_of=pending,listed', /^ipo_status\.any_of /);
      await rejects('/v1/reference/ipos?sort=colour.asc', /^sort /);
    });

    it('import: a bad record names its file and line, and nothing of the file is written', async () => {
      const path = join(dir, `bad-${engine.name}.csv`);
      writeFileSync(path, 'ticker,issuer_name,security_type,ipo_status,last_updated,listing_date\nGOOD,Good Inc.,CS,pending,2026-11-01,2026-12-01\nBADX,Bad Inc.,CS,listed,2026-11-01,2026-12-01\n');
      await expect(importFile(store, path, { dataset: 'ipos' })).rejects.toMatchObject({
        message: `${path}:3: ipo_status: must be one of direct_listing_process, history, new, pending, postponed, rumor, withdrawn`,
      });
      expect(await store.datasets.count(IPOS)).toBe(7);
      expect(await tickers('/vX/reference/ipos?ticker=GOOD')).toEqual([]);
    });

    it('import: a status change replaces the IPO in place', async () => {
      const path = join(dir, `update-${engine.name}.ndjson`);
      writeFileSync(path, JSON.stringify({ ...ROWS[2], ipo_status: 'new', listing_date: '2026-12-03', last_updated: '2026-12-03' }));
      await importFile(store, path);
      expect(await store.datasets.count(IPOS)).toBe(7);
      expect((await results('/vX/reference/ipos?ticker=PEND'))[0]).toMatchObject({ ipo_status: 'new', last_updated: '2026-12-03' });
    });
  });
}
