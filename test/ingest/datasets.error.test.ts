import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import '../../src/ingest/datasets.js';
import { importFile } from '../../src/ingest/load.js';
import type { Store } from '../../src/store/index.js';
import { engines } from '../helpers/engines.js';
import { sqlOf } from '../../src/store/inspect.js';

async function failure(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('the import was expected to fail');
}

for (const engine of engines()) {
  describe(`data-set import, bad input (${engine.name})`, () => {
    const dir = mkdtempSync(join(tmpdir(), 'tb-datasets-bad-'));
    const file = (name: string, content: string) => {
      const p = join(dir, name);
      writeFileSync(p, content);
      return p;
    };
    const count = async (table: string) => Number((await sqlOf(store).get(`SELECT COUNT(*) AS n FROM ${table}`))!.n);
    let store: Store;
    beforeAll(async () => {
      store = await engine.open();
    });
    beforeEach(async () => {
      for (const t of ['splits', 'dividends', 'fed_treasury_yields', 'income_statements', 'short_interest']) await sqlOf(store).run(`DELETE FROM ${t}`);
    });
    afterAll(async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('names file, line, field and reason for every bad record of a pretty-printed JSON array', async () => {
      const path = file('splits.json', JSON.stringify([
        { ticker: 'AAPL', execution_date: '2020-08-31', split_from: 1, split_to: 4 },
        { ticker: 'TSLA', execution_date: '2022-08-25', split_from: 0, split_to: 3 },
        { ticker: 'NVDA', execution_date: '2024-06-10', split_from: 1 },
        { ticker: 'GE', execution_date: '2021-08-02', split_from: 8, split_to: 1, adjustment_type: 'merger' },
      ], null, 2));
      const message = await failure(importFile(store, path));
      expect(message.split('\n')).toEqual([
        `${path}:8: split_from: must be above 0`,
        `${path}:14: split_to: is required`,
        `${path}:19: adjustment_type: must be one of forward_split, reverse_split, stock_dividend`,
      ]);
      expect(await count('splits')).toBe(0);
    });

    it('names the line of NDJSON and CSV records, and a line that is not JSON', async () => {
      const nd = file('yields.ndjson', '{"date":"2025-01-02","yield_10_year":4.5}\n\n{"date":"2025-01-03","yield_10_year":"4,6"}\n{"date":2025}\n{oops\n');
      expect((await failure(importFile(store, nd, { dataset: 'treasury-yields' }))).split('\n')).toEqual([
        `${nd}:3: yield_10_year: must be a number`,
        `${nd}:4: date: must be a real date in the form YYYY-MM-DD`,
        expect.stringMatching(new RegExp(`^${nd.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:5: \\(json\\): not valid JSON`)),
      ]);
      const csv = file('income.csv', 'cik,period_end,timeframe,revenue,fiscal_quarter\n320193,2025-06-30,quarterly,100,2\nAAPL,2025-06-30,monthly,1e3,5\n320193,2025-03-31,quarterly,90,1,extra\n');
      expect((await failure(importFile(store, csv))).split('\n')).toEqual([
        `${csv}:3: cik: must be a CIK (1 to 10 digits)`,
        `${csv}:3: fiscal_quarter: must be at most 4`,
        `${csv}:3: timeframe: must be one of quarterly, annual, trailing_twelve_months`,
        `${csv}:4: (csv): has 6 fields, the header has 5`,
      ]);
      expect(await count('fed_treasury_yields')).toBe(0);
      expect(await count('income_statements')).toBe(0);
    });

    it('keeps nothing of a file whose bad record comes after many good ones', async () => {
      const lines = ['ticker,settlement_date,avg_daily_volume,days_to_cover,short_interest'];
      for (let i = 0; i < 6000; i++) lines.push(`T${i},2025-10-31,1000,1.5,1500`);
      lines.push('LAST,2025-10-31,-5,1,1');
      const path = file('short.csv', `${lines.join('\n')}\n`);
      expect(await failure(importFile(store, path))).toBe(`${path}:6002: avg_daily_volume: must be at least 0`);
      expect(await count('short_interest')).toBe(0);
    });

    it('keeps nothing of a dividends file with one bad record (derived columns included)', async () => {
      await importFile(store, file('ok.ndjson', '{"ticker":"KO","execution_date":"2025-01-02","split_from":1,"split_to":2}\n'));
      const path = file('div.ndjson', '{"ticker":"KO","cash_amount":0.5,"ex_dividend_date":"2024-06-14","frequency":4}\n{"ticker":"KO","cash_amount":-1,"ex_dividend_date":"2024-09-13","frequency":4}\n');
      expect(await failure(importFile(store, path))).toBe(`${path}:2: cash_amount: must be at least 0`);
      expect(await count('dividends')).toBe(0);
    });

    it('asks for --dataset when the fields fit several data sets or none', async () => {
      const both = file('dates.json', '[{"date":"2025-01-01"}]');
      expect(await failure(importFile(store, both))).toBe(`${both}:1: the fields fit several data sets (inflation, inflation-expectations, treasury-yields, labor-market, funding-conditions); pass --dataset`);
      // the risk taxonomy and the 8-K disclosure taxonomy have the same fields
      const taxonomy = file('taxonomy.json', '[{"taxonomy":"1.0","primary_category":"a","secondary_category":"b","tertiary_category":"c","description":"d"}]');
      expect(await failure(importFile(store, taxonomy))).toBe(`${taxonomy}:1: the fields fit several data sets (risk-categories, disclosure-taxonomy); pass --dataset`);
      const none = file('other.json', '[{"colour":"red","size":3}]');
      expect(await failure(importFile(store, none))).toMatch(new RegExp(`^${none.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:1: unrecognised file`));
      const fitsNone = file('partial.ndjson', '{"ticker":"AAPL","settlement_date":"2025-01-15"}\n');
      expect(await failure(importFile(store, fitsNone, { dataset: 'short-interest' }))).toBe(`${fitsNone}:1: avg_daily_volume: is required\n${fitsNone}:1: days_to_cover: is required`);
    });

    it('refuses an unknown --dataset and a file with no records', async () => {
      const path = file('empty.json', '[]');
      expect(await failure(importFile(store, path))).toMatch(/unrecognised file/);
      expect(await importFile(store, path, { dataset: 'splits' })).toMatchObject({ rows: 0, written: 0 });
      const p2 = file('x.json', '[{"date":"2025-01-01"}]');
      expect(await failure(importFile(store, p2, { dataset: 'cpi' }))).toMatch(/unrecognised file/);
    });

    it('refuses records that are not objects and malformed JSON files', async () => {
      const arr = file('arr.json', '[["AAPL","2020-08-31"],{"ticker":"AAPL","execution_date":"2020-08-31","split_from":1,"split_to":4}]');
      expect(await failure(importFile(store, arr, { dataset: 'splits' }))).toBe(`${arr}:1: (record): must be a JSON object`);
      const broken = file('broken.json', '[\n{"ticker":"AAPL",\n');
      expect(await failure(importFile(store, broken, { dataset: 'splits' }))).toMatch(/:\d+: \(json\): not valid JSON/);
      expect(await count('splits')).toBe(0);
    });
  });
}
