import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { importFile } from '../../src/ingest/load.js';
import '../../src/ingest/options-contracts.js';
import type { Store } from '../../src/store/index.js';
import { startTestApp } from '../helpers/app.js';
import { UPSTREAM_DIR, haveUpstream, skipConformance } from '../helpers/conformance.js';
import { engines } from '../helpers/engines.js';
import { TempDir } from './import-files.js';
import { sqlOf } from '../../src/store/inspect.js';

const contract = (strike: number, extra: Record<string, unknown> = {}) => ({
  cfi: 'OCASPS',
  contract_type: 'call',
  exercise_style: 'american',
  expiration_date: '2027-01-15',
  primary_exchange: 'BATO',
  shares_per_contract: 100,
  strike_price: strike,
  ticker: `O:QQQ270115C${String(strike * 1000).padStart(8, '0')}`,
  underlying_ticker: 'QQQ',
  ...extra,
});

for (const engine of engines()) {
  describe(`option contracts import (${engine.name})`, () => {
    let store: Store;
    let dir: TempDir;
    beforeAll(async () => {
      store = await engine.open();
    });
    afterAll(async () => {
      dir?.remove();
      await store.close();
    });
    beforeEach(async () => {
      dir?.remove();
      dir = new TempDir();
      await sqlOf(store).run('DELETE FROM options_contracts');
    });

    it('imports an upstream response body; a second import changes nothing', async () => {
      const file = dir.writeRaw('contracts.json', JSON.stringify({ status: 'OK', results: [contract(400), contract(410)], next_url: 'https://x/y?cursor=z' }));
      expect(await importFile(store, file)).toMatchObject({ kind: 'options-contracts', rows: 2, written: 2, rejected: 0 });
      expect(await importFile(store, file)).toMatchObject({ rows: 2, written: 0 });
      expect(await store.options.countContracts()).toBe(2);
    });

    it('imports NDJSON and CSV, tickers without O:, deliverables as JSON text, list dates', async () => {
      const nd = dir.writeRaw('c.ndjson', [contract(420), { ...contract(430), ticker: 'QQQ270115C00430000' }].map((c) => JSON.stringify(c)).join('\n'));
      expect(await importFile(store, nd)).toMatchObject({ rows: 2, written: 2 });
      const csv = dir.write('c.csv', 'ticker,underlying_ticker,contract_type,exercise_style,expiration_date,strike_price,shares_per_contract,correction,additional_underlyings,list_date', [
        'O:QQQ270115P00440000,QQQ,put,american,2027-01-15,440,100,,,2026-06-01',
        'O:QQQ1270115C00450000,QQQ,call,american,2027-01-15,450,150,2,"[{""type"":""equity"",""underlying"":""XYZ"",""amount"":50}]",',
      ]);
      expect(await importFile(store, csv)).toMatchObject({ rows: 2, written: 2 });
      expect((await store.options.getContract('O:QQQ270115C00430000'))?.strike_price).toBe(430);
      const adjusted = await store.options.getContract('O:QQQ1270115C00450000');
      expect(adjusted).toMatchObject({ shares_per_contract: 150, correction: 2, additional_underlyings: [{ type: 'equity', underlying: 'XYZ', amount: 50 }] });
      expect((await store.options.getContract('O:QQQ270115P00440000'))?.list_date).toBe('2026-06-01');

      const t = await startTestApp(store, { envelope: 'native', now: () => Date.parse('2026-11-20T15:00:00Z') });
      try {
        const listed = (await t.get('/v3/reference/options/contracts?underlying_ticker=QQQ&limit=100')).body.results;
        expect(listed).toHaveLength(4);
        expect((await t.get('/v3/reference/options/contracts/O:QQQ1270115C00450000')).body.results.additional_underlyings).toHaveLength(1);
      } finally {
        await t.close();
      }
    });

    it('refuses a file with a bad record, naming file:line and field, and keeps nothing of it', async () => {
      const file = dir.writeRaw('bad.ndjson', [contract(400), contract(410, { strike_price: -5 }), contract(420, { contract_type: 'straddle', expiration_date: '2027-02-30' })].map((c) => JSON.stringify(c)).join('\n'));
      const err = await importFile(store, file).catch((e: Error) => e);
      expect(err).toBeInstanceOf(Error);
      const message = (err as Error).message;
      expect(message).toContain(`${file}:2: strike_price: must be a number of at least 0`);
      expect(message).toContain(`${file}:3: contract_type: must be one of call, put, other`);
      expect(message).toContain(`${file}:3: expiration_date: must be a real date in the form YYYY-MM-DD`);
      expect(await store.options.countContracts()).toBe(0);
    });

    it('with skipBadRows imports the rest and writes the rejects next to the file', async () => {
      const file = dir.writeRaw('some.ndjson', [contract(400), { ...contract(410), ticker: 'NOT A TICKER' }, contract(420)].map((c) => JSON.stringify(c)).join('\n'));
      const r = await importFile(store, file, { skipBadRows: true });
      expect(r).toMatchObject({ rows: 2, written: 2, rejected: 1 });
      expect(readFileSync(r.rejectsFile!, 'utf8')).toContain('ticker: must be an option ticker');
    });

    it('imports the recorded upstream contracts body as it is', async () => {
      const recorded = `${UPSTREAM_DIR}/v3/reference/options/contracts.json`;
      if (!haveUpstream || !existsSync(recorded)) return skipConformance('options contracts import of the recorded body');
      const file = dir.writeRaw('recorded.json', readFileSync(recorded));
      const r = await importFile(store, file);
      expect(r.rows).toBeGreaterThan(0);
      expect(await store.options.getContract('O:A220520C00065000')).toMatchObject({ underlying_ticker: 'A', strike_price: 65, cfi: 'OCASPS' });
    });
  });
}
