import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import '../../src/ingest/datasets.js';
import '../../src/ingest/news-social.js';
import '../../src/ingest/options-contracts.js';
import { importFile, readHead, registeredImporters } from '../../src/ingest/load.js';
import { tickersImporter } from '../../src/ingest/tickers.js';
import { DIVIDENDS } from '../../src/store/repos/corporate-actions.js';
import type { Store } from '../../src/store/index.js';
import { startTestApp, type TestApp } from '../helpers/app.js';
import { UPSTREAM_DIR, haveUpstream, skipConformance } from '../helpers/conformance.js';
import { engines } from '../helpers/engines.js';
import { NEWS_FIXTURE } from '../helpers/news-fixture.js';
import { TempDir } from './import-files.js';
import { sqlOf } from '../../src/store/inspect.js';

const LIST_BODY = `${UPSTREAM_DIR}/v3/reference/tickers.json`;
const OVERVIEW_BODY = `${UPSTREAM_DIR}/v3/reference/tickers/AAPL.json`;

const rec = (ticker: string, extra: Record<string, unknown> = {}) => ({
  ticker,
  name: `${ticker} Corp`,
  market: 'stocks',
  locale: 'us',
  primary_exchange: 'XNAS',
  type: 'CS',
  active: true,
  currency_name: 'usd',
  cik: '0000320193',
  last_updated_utc: '2024-01-02T00:00:00Z',
  ...extra,
});

async function allRows(store: Store) {
  return sqlOf(store).all('SELECT * FROM tickers ORDER BY ticker, valid_from');
}

for (const engine of engines()) {
  describe(`ticker reference import (${engine.name})`, () => {
    let store: Store;
    let dir: TempDir;
    let t: TestApp;
    beforeAll(async () => {
      store = await engine.open();
      t = await startTestApp(store, { envelope: 'native' });
    });
    afterAll(async () => {
      dir?.remove();
      await t.close();
      await store.close();
    });
    beforeEach(async () => {
      dir?.remove();
      dir = new TempDir();
      await sqlOf(store).run('DELETE FROM tickers');
    });

    it('imports the recorded list body and serves it back field for field', async () => {
      if (!haveUpstream || !existsSync(LIST_BODY)) return skipConformance('tickers import of the recorded list body');
      const recorded = JSON.parse(readFileSync(LIST_BODY, 'utf8')) as { results: Record<string, unknown>[] };
      const file = dir.writeRaw('tickers.json', readFileSync(LIST_BODY));
      const r = await importFile(store, file);
      expect(r).toMatchObject({ importer: 'tickers', kind: 'tickers', rows: recorded.results.length, written: recorded.results.length, rejected: 0 });
      const listed = (await t.get('/v3/reference/tickers?limit=1000')).body.results as Record<string, unknown>[];
      expect(listed).toEqual(recorded.results);
      for (const item of recorded.results) {
        const one = (await t.get(`/v3/reference/tickers/${item.ticker}`)).body.results;
        expect(one).toEqual(item);
      }
    });

    it('imports the recorded overview body ({"results": {...}}) and serves it back', async () => {
      if (!haveUpstream || !existsSync(OVERVIEW_BODY)) return skipConformance('tickers import of the recorded overview body');
      const recorded = JSON.parse(readFileSync(OVERVIEW_BODY, 'utf8')).results as Record<string, unknown>;
      const file = dir.writeRaw('AAPL.json', readFileSync(OVERVIEW_BODY));
      expect(await importFile(store, file)).toMatchObject({ kind: 'tickers', rows: 1, written: 1 });
      const body = (await t.get('/v3/reference/tickers/AAPL')).body.results as Record<string, unknown>;
      const { last_updated_utc, ...rest } = body;
      // The recorded overview has no last_updated_utc: the import time stands in.
      expect(typeof last_updated_utc).toBe('string');
      expect(rest).toEqual(recorded);
      const stored = await store.reference.getTicker('AAPL');
      expect(stored?.valid_from).toBe('1900-01-01');
      // A second import changes nothing (the stand-in last_updated_utc stays).
      const again = await importFile(store, file);
      expect(again).toMatchObject({ rows: 1, written: 0, notes: ['0 updated, 1 unchanged'] });
      const listed = (await t.get('/v3/reference/tickers?ticker=AAPL')).body.results;
      expect(listed).toHaveLength(1);
      expect(listed[0]).toMatchObject({ ticker: 'AAPL', name: 'Apple Inc.', cik: '0000320193' });
    });

    it('imports NDJSON and CSV (dotted address columns, JSON branding, booleans, short CIKs)', async () => {
      const nd = dir.writeRaw('t.ndjson', [rec('AAA'), rec('X:BTCUSD', { market: 'crypto', locale: 'global', type: undefined, cik: undefined, currency_symbol: 'USD', base_currency_symbol: 'BTC' })].map((x) => JSON.stringify(x)).join('\n'));
      expect(await importFile(store, nd)).toMatchObject({ kind: 'tickers', rows: 2, written: 2 });
      const csv = dir.write('t.csv', 'ticker,name,market,locale,active,cik,list_date,total_employees,market_cap,round_lot,address.city,address.state,branding,delisted_utc,cusip,sic_code', [
        'BBB,"Bee, Inc.",stocks,us,true,320193,2001-02-03,1200,123456789.5,100,SPRINGFIELD,IL,"{""logo_url"":""https://b.example/logo.svg""}",,123456789,3571',
        'CCC,Cee Ltd,otc,us,false,,,,,,,,,2023-05-01T20:00:00-04:00,,',
      ]);
      expect(await importFile(store, csv)).toMatchObject({ kind: 'tickers', rows: 2, written: 2, rejected: 0 });

      expect((await t.get('/v3/reference/tickers/X:BTCUSD')).body.results).toMatchObject({ market: 'crypto', locale: 'global', base_currency_symbol: 'BTC' });
      const bbb = (await t.get('/v3/reference/tickers/BBB')).body.results;
      expect(bbb).toMatchObject({
        name: 'Bee, Inc.', active: true, cik: '0000320193', list_date: '2001-02-03', total_employees: 1200, market_cap: 123456789.5, round_lot: 100,
        address: { city: 'SPRINGFIELD', state: 'IL' }, branding: { logo_url: 'https://b.example/logo.svg' }, sic_code: '3571',
      });
      expect(bbb.cusip).toBeUndefined();
      expect((await t.get('/v3/reference/tickers?cusip=123456789')).body.results.map((x: { ticker: string }) => x.ticker)).toEqual(['BBB']);
      const ccc = (await t.get('/v3/reference/tickers/CCC')).body.results;
      expect(ccc).toMatchObject({ market: 'otc', active: false, delisted_utc: '2023-05-02T00:00:00Z' });
      expect((await t.get('/v3/reference/tickers?active=false')).body.results.map((x: { ticker: string }) => x.ticker)).toEqual(['CCC']);
    });

    it('refuses a file with a bad record, naming file, line and field, and keeps nothing of it', async () => {
      const file = dir.writeRaw('bad.ndjson', [rec('AAA'), rec('BBB', { market: 'moon' }), rec('C C', { active: 'yes', cik: '12345678901', list_date: '2024-02-30' })].map((x) => JSON.stringify(x)).join('\n'));
      const err = await importFile(store, file).catch((e: Error) => e);
      expect(err).toBeInstanceOf(Error);
      const message = (err as Error).message;
      expect(message).toContain(`${file}:2: market: must be one of stocks, crypto, fx, otc, indices`);
      expect(message).toContain(`${file}:3: ticker: must be a symbol`);
      expect(message).toContain(`${file}:3: active: must be true or false`);
      expect(message).toContain(`${file}:3: cik: must be a CIK`);
      expect(message).toContain(`${file}:3: list_date: must be a real date`);
      expect(await store.reference.countTickers()).toBe(0);

      const json = dir.writeRaw('bad.json', JSON.stringify({ results: [rec('AAA'), { ...rec('BBB'), market: 'moon' }] }, null, 2));
      const err2 = await importFile(store, json).catch((e: Error) => e);
      expect((err2 as Error).message).toMatch(new RegExp(`${json.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\\d+: market: must be one of`));
      const line = Number(/:(\d+): market/.exec((err2 as Error).message)![1]);
      expect(readFileSync(json, 'utf8').split('\n')[line - 1]).toBe('    {');
      expect(await store.reference.countTickers()).toBe(0);

      const missing = dir.writeRaw('missing.ndjson', JSON.stringify({ ticker: 'AAA', name: 'A', market: 'stocks', locale: 'mars', active: 'true' }));
      // The file's fields still say tickers (ticker, name, market, locale): its problem is the value.
      expect((await importFile(store, missing).catch((e: Error) => e) as Error).message).toContain(`${missing}:1: locale: must be one of us, global`);
    });

    it('with skipBadRows imports the rest and writes the rejects next to the file', async () => {
      const file = dir.writeRaw('some.ndjson', [rec('AAA'), rec('BBB', { market: 'moon' }), rec('CCC')].map((x) => JSON.stringify(x)).join('\n'));
      const r = await importFile(store, file, { skipBadRows: true });
      expect(r).toMatchObject({ rows: 2, written: 2, rejected: 1 });
      expect(readFileSync(r.rejectsFile!, 'utf8')).toContain('market: must be one of');
    });

    it('importing twice writes nothing and changes nothing', async () => {
      const file = dir.writeRaw('t.json', JSON.stringify({ status: 'OK', results: [rec('AAA'), rec('BBB')] }));
      expect(await importFile(store, file)).toMatchObject({ rows: 2, written: 2 });
      const before = await allRows(store);
      expect(await importFile(store, file)).toMatchObject({ rows: 2, written: 0, notes: ['0 updated, 2 unchanged'] });
      expect(await allRows(store)).toEqual(before);
      // Without last_updated_utc too (the first import's time stays).
      const bare = dir.writeRaw('bare.ndjson', JSON.stringify({ ticker: 'DDD', name: 'Dee', market: 'stocks', locale: 'us' }));
      await importFile(store, bare);
      const withD = await allRows(store);
      expect(await importFile(store, bare)).toMatchObject({ written: 0, notes: ['0 updated, 1 unchanged'] });
      expect(await allRows(store)).toEqual(withD);
    });

    it('a ticker twice in one file (also across batches): the later record wins; a one-line overview body', async () => {
      const lines = [rec('T0000')];
      for (let i = 1; i <= 1000; i++) lines.push(rec(`T${String(i).padStart(4, '0')}`));
      lines.push(rec('T0000', { name: 'Last Word' }), rec('T0001', { name: 'Twice' }), rec('T0001', { name: 'Thrice' }));
      const r = await importFile(store, dir.writeRaw('many.ndjson', lines.map((x) => JSON.stringify(x)).join('\n')));
      expect(r).toMatchObject({ rows: 1004, written: 1001 });
      expect((await store.reference.getTicker('T0000'))?.name).toBe('Last Word');
      expect((await store.reference.getTicker('T0001'))?.name).toBe('Thrice');
      const one = dir.writeRaw('ZZZ.json', JSON.stringify({ results: rec('ZZZ'), status: 'OK', request_id: 'x' }));
      expect(await importFile(store, one)).toMatchObject({ importer: 'tickers', rows: 1, written: 1 });
      expect((await t.get('/v3/reference/tickers/ZZZ')).body.results.name).toBe('ZZZ Corp');
    });

    it('a second import with a changed name updates the current version in place', async () => {
      await importFile(store, dir.writeRaw('a.ndjson', JSON.stringify(rec('AAA', { description: 'kept' }))));
      const r = await importFile(store, dir.writeRaw('b.ndjson', JSON.stringify({ ticker: 'AAA', name: 'Renamed Corp', market: 'stocks', locale: 'us' })));
      expect(r).toMatchObject({ rows: 1, written: 0, notes: ['1 updated, 0 unchanged'] });
      expect(await store.reference.countTickers()).toBe(1);
      const cur = await store.reference.getTicker('AAA');
      expect(cur).toMatchObject({ name: 'Renamed Corp', valid_from: '1900-01-01', description: 'kept', cik: '0000320193' });
      expect(cur!.last_updated_utc).not.toBe('2024-01-02T00:00:00Z');
      expect((await t.get('/v3/reference/tickers/AAA')).body.results.name).toBe('Renamed Corp');
    });

    it('valid_from: kept, a later one starts a version, an earlier one is refused; valid_to gives a past version', async () => {
      await importFile(store, dir.writeRaw('a.ndjson', JSON.stringify(rec('AAA', { valid_from: '2010-01-01' }))));
      expect((await store.reference.getTicker('AAA'))?.valid_from).toBe('2010-01-01');
      await importFile(store, dir.writeRaw('b.ndjson', JSON.stringify(rec('AAA', { name: 'New Name' }))));
      expect(await store.reference.getTicker('AAA')).toMatchObject({ valid_from: '2010-01-01', name: 'New Name' });
      expect(await importFile(store, dir.writeRaw('c.ndjson', JSON.stringify(rec('AAA', { name: 'Newer', valid_from: '2020-01-01' }))))).toMatchObject({ written: 1 });
      expect(await store.reference.getTicker('AAA')).toMatchObject({ valid_from: '2020-01-01', name: 'Newer' });
      expect(await store.reference.getTicker('AAA', '2015-06-01')).toMatchObject({ valid_from: '2010-01-01', valid_to: '2020-01-01', name: 'New Name' });
      const early = dir.writeRaw('d.ndjson', JSON.stringify(rec('AAA', { valid_from: '2015-01-01' })));
      expect((await importFile(store, early).catch((e: Error) => e) as Error).message).toContain(`${early}:1: valid_from: is before the current version's valid_from (2020-01-01)`);
      await importFile(store, dir.writeRaw('e.ndjson', JSON.stringify(rec('AAA', { name: 'Oldest', valid_from: '2000-01-01', valid_to: '2010-01-01' }))));
      expect(await store.reference.getTicker('AAA', '2005-01-01')).toMatchObject({ name: 'Oldest' });
      expect(await store.reference.getTicker('AAA')).toMatchObject({ name: 'Newer' });
      expect(await store.reference.countTickers()).toBe(3);
    });

    it('does not take news or dividends files, and they do not take ticker files', async () => {
      const divBefore = await store.datasets.count(DIVIDENDS);
      const tickers = dir.writeRaw('tickers.json', JSON.stringify({ results: [rec('AAA'), rec('BBB')] }, null, 2));
      const news = dir.writeRaw('news.json', JSON.stringify({ status: 'OK', results: NEWS_FIXTURE.slice(0, 2) }, null, 2));
      const dividends = dir.writeRaw('dividends.json', JSON.stringify({ results: [{ ticker: 'AAA', cash_amount: 0.5, ex_dividend_date: '2024-03-01', frequency: 4, pay_date: '2024-03-15' }] }));
      const tickersCsv = dir.write('tickers.csv', 'ticker,name,market,locale', ['EEE,Ee,stocks,us']);
      expect((await importFile(store, news)).importer).toBe('news-social');
      expect((await importFile(store, dividends)).importer).toBe('datasets');
      expect((await importFile(store, tickers)).importer).toBe('tickers');
      expect((await importFile(store, tickersCsv)).importer).toBe('tickers');
      expect(await store.news.countArticles()).toBe(2);
      expect(await store.datasets.count(DIVIDENDS)).toBe(divBefore + 1);
      expect(await store.reference.countTickers()).toBe(3);
      // Whatever the registration order: no other importer claims a ticker file, and this one claims none of theirs.
      for (const path of [tickers, tickersCsv]) {
        const claimers = registeredImporters().filter((i) => i.detect(path, readHead(path)));
        expect(claimers.map((i) => i.name)).toEqual(['tickers']);
      }
      for (const path of [news, dividends]) expect(tickersImporter.detect(path, readHead(path))).toBe(false);
      expect(tickersImporter.detect(news, readHead(news), { dataset: 'tickers' })).toBe(true);
      expect(tickersImporter.detect(tickers, readHead(tickers), { dataset: 'dividends' })).toBe(false);
    });
  });
}
