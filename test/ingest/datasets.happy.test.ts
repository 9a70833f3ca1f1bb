import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFundamentals, type FundamentalsDemo } from '../../src/demo/fundamentals.js';
import { buildFilingsEconomyDemo } from '../../src/demo/filings-economy.js';
import { buildFuturesReferenceDemo } from '../../src/demo/futures.js';
import { buildIpoDemo, buildRelatedCompaniesDemo } from '../../src/demo/listings.js';
import { buildPartnerDemo } from '../../src/demo/partner.js';
import '../../src/ingest/datasets.js';
import { importFile } from '../../src/ingest/load.js';
import type { Store } from '../../src/store/index.js';
import { DIVIDENDS, SPLITS } from '../../src/store/repos/corporate-actions.js';
import { DATASET_DECLARATIONS } from '../../src/store/repos/dataset-catalog.js';
import type { DatasetDef, DatasetRecord } from '../../src/store/repos/datasets.js';
import { engines } from '../helpers/engines.js';
import { UPSTREAM_DIR } from '../helpers/conformance.js';
import { sqlOf } from '../../src/store/inspect.js';

const SAMPLE: Record<string, keyof FundamentalsDemo> = {
  dividends: 'dividends', splits: 'splits', 'balance-sheets': 'balance', 'cash-flow-statements': 'cashFlow', 'income-statements': 'income',
  ratios: 'ratios', float: 'float', 'short-interest': 'shortInterest', 'short-volume': 'shortVolume', 'risk-factors': 'riskFactors',
  'risk-categories': 'riskCategories', inflation: 'inflation', 'inflation-expectations': 'expectations', 'treasury-yields': 'yields',
};

/**
 * Data sets whose wire fields are the same, so that a file of either is imported with --dataset:
 * the risk-factor taxonomy and the 8-K disclosure taxonomy (version, three levels, description).
 */
const SAME_FIELDS = ['risk-categories', 'disclosure-taxonomy'];

/** A CSV cell: JSON text for a json field (whatever its value) and for objects, a string-array comma-joined. */
function csvCell(v: unknown, json = false): string {
  if (v === undefined || v === null) return '';
  const s = json ? JSON.stringify(v) : Array.isArray(v) ? (v.every((x) => typeof x === 'string') ? v.join(',') : JSON.stringify(v)) : typeof v === 'object' ? JSON.stringify(v) : String(v);
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function toCsv(records: readonly DatasetRecord[], def?: DatasetDef): string {
  const header = [...new Set(records.flatMap((r) => Object.keys(r)))];
  return [header.join(','), ...records.map((r) => header.map((h) => csvCell(r[h], def?.fields[h]?.type === 'json')).join(','))].join('\n') + '\n';
}

type Format = 'json' | 'body' | 'ndjson' | 'csv';
function render(format: Format, records: readonly DatasetRecord[], def: DatasetDef): string {
  switch (format) {
    case 'json':
      return JSON.stringify(records, null, 2);
    case 'body':
      return JSON.stringify({ status: 'OK', request_id: 'x', count: records.length, results: records });
    case 'ndjson':
      return records.map((r) => JSON.stringify(r)).join('\n') + '\n';
    case 'csv':
      return toCsv(records, def);
  }
}
const EXT: Record<Format, string> = { json: 'json', body: 'json', ndjson: 'ndjson', csv: 'csv' };

async function stored(store: Store, def: DatasetDef): Promise<DatasetRecord[]> {
  return (await store.datasets.list(def, { where: [], sort: [], limit: 100_000 })).map((r) => r.record);
}

/** A record as the API shows it, field order aside (derived fields are checked separately). */
function comparable(def: DatasetDef, r: DatasetRecord): DatasetRecord {
  const out: DatasetRecord = {};
  for (const [k, v] of Object.entries(r)) if (def.fields[k] && !def.fields[k]!.derived && k !== 'split_adjusted_cash_amount' && (def !== SPLITS || k !== 'historical_adjustment_factor')) out[k] = v;
  return out;
}

for (const engine of engines()) {
  describe(`data-set import (${engine.name})`, () => {
    const dir = mkdtempSync(join(tmpdir(), 'tb-datasets-import-'));
    let store: Store;
    let demo: FundamentalsDemo;
    const partner: Record<string, DatasetRecord[]> = {
      ...buildPartnerDemo('2026-11-20'), ...buildFilingsEconomyDemo('2026-11-20'), ...buildFuturesReferenceDemo('2026-11-20'),
      ipos: buildIpoDemo('2026-11-20'), 'related-companies': buildRelatedCompaniesDemo(),
    };
    beforeAll(async () => {
      store = await engine.open();
      demo = await buildFundamentals(store, { asOf: '2026-11-20', shortVolumeDays: 5 });
    });
    afterAll(async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    });

    const formats: Format[] = ['json', 'body', 'ndjson', 'csv'];
    DATASET_DECLARATIONS.forEach((def, i) => {
      for (const format of [formats[i % 4]!, formats[(i + 1) % 4]!]) {
        it(`${def.name} from ${format}: detected from its fields (named when another data set has the same), every value kept, idempotent`, async () => {
          await sqlOf(store).run(`DELETE FROM ${def.table}`);
          const sample = (partner[def.name] ?? demo[SAMPLE[def.name]!]).slice(0, 6);
          expect(sample.length).toBeGreaterThan(0);
          const path = join(dir, `${def.name}-${format}.${EXT[format]}`);
          writeFileSync(path, render(format, sample, def));
          const named = SAME_FIELDS.includes(def.name) ? { dataset: def.name } : {};
          if (named.dataset) await expect(importFile(store, path)).rejects.toThrow(`the fields fit several data sets (${SAME_FIELDS.join(', ')}); pass --dataset`);
          const first = await importFile(store, path, named);
          expect(first).toMatchObject({ importer: 'datasets', kind: def.name, rows: sample.length, written: sample.length, rejected: 0 });
          const rows = await stored(store, def);
          const key = (r: DatasetRecord) => JSON.stringify(Object.entries(comparable(def, r)).sort());
          expect(rows.map(key).sort()).toEqual(sample.map(key).sort());
          const second = await importFile(store, path, named);
          expect(second).toMatchObject({ rows: sample.length, written: 0 });
          expect(await stored(store, def)).toEqual(rows);
        });
      }
    });

    it('loads the recorded upstream v3 bodies as they are', async () => {
      for (const [file, def, n] of [['v3/reference/dividends.json', DIVIDENDS, 1], ['v3/reference/splits.json', SPLITS, 10]] as const) {
        const path = `${UPSTREAM_DIR}/${file}`;
        let text: string;
        try {
          text = readFileSync(path, 'utf8');
        } catch {
          console.log(`recorded-body import skipped: ${path} is not available`);
          return;
        }
        const copy = join(dir, file.replace(/\//g, '_'));
        writeFileSync(copy, text);
        await sqlOf(store).run(`DELETE FROM ${def.table}`);
        expect(await importFile(store, copy)).toMatchObject({ kind: def.name, rows: n, written: n });
      }
      const [cssen] = await stored(store, DIVIDENDS);
      expect(cssen).toMatchObject({ ticker: 'CSSEN', cash_amount: 0.59375, distribution_type: 'recurring', frequency: 4 });
      const splits = await stored(store, SPLITS);
      expect(splits.find((s) => s.ticker === 'BRW')).toMatchObject({ split_from: 2, split_to: 1, adjustment_type: 'reverse_split' });
    });

    it('keeps one split per ticker and day: a second ratio for that day replaces the first', async () => {
      const first = join(dir, 'split-a.json');
      const second = join(dir, 'split-b.ndjson');
      writeFileSync(first, JSON.stringify([{ id: 'up-1', ticker: 'SPLT', execution_date: '2024-06-10', split_from: 1, split_to: 2 }]));
      writeFileSync(second, `${JSON.stringify({ id: 'up-2', ticker: 'SPLT', execution_date: '2024-06-10', split_from: 1, split_to: 3 })}\n`);
      await importFile(store, first);
      await importFile(store, second);
      const rows = (await stored(store, SPLITS)).filter((r) => r.ticker === 'SPLT');
      expect(rows.map((r) => [r.id, r.execution_date, r.split_from, r.split_to])).toEqual([['up-2', '2024-06-10', 1, 3]]);
      const splits = await store.corporateActions.splitsFor('SPLT');
      expect(splits).toHaveLength(1);
    });

    it('reads gzip, CSV lists quoted or as JSON, and CIKs without padding', async () => {
      await sqlOf(store).run('DELETE FROM balance_sheets');
      const csv = 'cik,tickers,period_end,timeframe,total_assets\n320193,"GOOG,GOOGL",2025-06-30,quarterly,10\n1652044,"[""BRK.A"",""BRK.B""]",2025-06-30,annual,20\n';
      const path = join(dir, 'bs.csv.gz');
      writeFileSync(path, gzipSync(csv));
      expect(await importFile(store, path)).toMatchObject({ kind: 'balance-sheets', rows: 2 });
      const rows = await stored(store, DATASET_DECLARATIONS.find((d) => d.name === 'balance-sheets')!);
      expect(rows.map((r) => [r.cik, r.tickers, r.total_assets])).toEqual([
        ['0000320193', ['GOOG', 'GOOGL'], 10],
        ['0001652044', ['BRK.A', 'BRK.B'], 20],
      ]);
    });

    it('reads CSV text fields that span lines (blank lines, quotes, CRLF kept inside), numbering records by their first line', async () => {
      await sqlOf(store).run('DELETE FROM filing_8k_text');
      const def = DATASET_DECLARATIONS.find((d) => d.name === '8k-text')!;
      const csv = [
        'accession_number,cik,filing_date,form_type,items_text',
        '0001-25-000001,320193,2025-01-02,8-K,"Item 2.02 Results',
        '',
        'Revenue rose; the ""Services"" segment, a record.\r',
        'End."',
        '0001-25-000002,320193,2025-01-03,8-K,one line',
        '',
      ].join('\n');
      const path = join(dir, '8k.csv');
      writeFileSync(path, csv);
      expect(await importFile(store, path, { dataset: '8k-text' })).toMatchObject({ kind: '8k-text', rows: 2 });
      const rows = (await stored(store, def)).sort((a, b) => String(a.accession_number).localeCompare(String(b.accession_number)));
      expect(rows.map((r) => r.items_text)).toEqual(['Item 2.02 Results\n\nRevenue rose; the "Services" segment, a record.\nEnd.', 'one line']);

      // a quote left open runs to the end of the file: the file is refused, naming the record's first line
      writeFileSync(path, 'accession_number,cik,filing_date,form_type,items_text\n0001-25-000003,320193,2025-01-04,8-K,fine\n0001-25-000004,320193,2025-01-05,8-K,"never closed\nmore\n');
      await expect(importFile(store, path, { dataset: '8k-text' })).rejects.toThrow(`${path}:3: (csv): unterminated quoted field (it runs to the end of the file)`);
      expect((await stored(store, def)).map((r) => r.accession_number).sort()).toEqual(['0001-25-000001', '0001-25-000002']);
    });

    it('takes --dataset when fields fit several data sets, and names fields it ignored', async () => {
      const path = join(dir, 'dates.ndjson');
      writeFileSync(path, '{"date":"2025-01-01","note":"x"}\n{"date":"2025-02-01"}\n');
      const r = await importFile(store, path, { dataset: 'inflation-expectations' });
      expect(r).toMatchObject({ kind: 'inflation-expectations', rows: 2 });
      expect(r.notes).toEqual(['ignored fields not in inflation-expectations: note']);
    });

    it('writes the records it skips, with their reasons, under --skip-bad-rows', async () => {
      await sqlOf(store).run('DELETE FROM fed_treasury_yields');
      const path = join(dir, 'yields.csv');
      writeFileSync(path, 'date,yield_10_year,yield_2_year\n2025-01-02,4.5,4.2\n2025-01-03,high,4.1\n2025-13-01,4.4,\n2025-01-06,4.6,4.3\n');
      const r = await importFile(store, path, { skipBadRows: true });
      expect(r).toMatchObject({ kind: 'treasury-yields', rows: 2, written: 2, rejected: 2 });
      const rejects = readFileSync(r.rejectsFile!, 'utf8').trim().split('\n');
      expect(rejects[0]).toBe('line,reason,row');
      expect(rejects[1]).toMatch(/^3,yield_10_year: must be a number,/);
      expect(rejects[2]).toMatch(/^4,date: must be a real date in the form YYYY-MM-DD,/);
      rmSync(r.rejectsFile!);
    });
  });
}
