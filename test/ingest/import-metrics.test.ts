// tickerbase_import_rows_total{dataset} counts the rows each committed file import wrote.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import '../../src/ingest/datasets.js';
import { importFile } from '../../src/ingest/load.js';
import { importRows } from '../../src/ingest/metrics.js';
import type { Store } from '../../src/store/index.js';
import { engines } from '../helpers/engines.js';
import { TempDir, TRADES_HEADER, tradeLines } from './import-files.js';

async function counted(dataset: string): Promise<number> {
  const metric = await importRows.get();
  return metric.values.find((v) => v.labels.dataset === dataset)?.value ?? 0;
}

for (const engine of engines()) {
  describe(`import rows metric (${engine.name})`, () => {
    let store: Store;
    const dir = new TempDir();
    beforeAll(async () => {
      store = await engine.open();
    });
    afterAll(async () => {
      await store.close();
      dir.remove();
    });

    it('adds the rows written per data set / kind once the file is committed', async () => {
      const trades = dir.write(`trades-${engine.name}.csv`, TRADES_HEADER, tradeLines(30));
      const before = await counted('trades');
      expect(await importFile(store, trades)).toMatchObject({ kind: 'trades', rows: 30, written: 30 });
      expect((await counted('trades')) - before).toBe(30);
      // Importing it again writes nothing new, so nothing is added.
      expect(await importFile(store, trades)).toMatchObject({ written: 0 });
      expect((await counted('trades')) - before).toBe(30);

      const cats = dir.write(`cats-${engine.name}.ndjson`, '{"taxonomy":1,"primary_category":"a","secondary_category":"b","tertiary_category":"c"}', [
        '{"taxonomy":1,"primary_category":"a","secondary_category":"b","tertiary_category":"d","description":"x"}',
      ]);
      const beforeCats = await counted('risk-categories');
      const r = await importFile(store, cats, { dataset: 'risk-categories' });
      expect(r).toMatchObject({ kind: 'risk-categories', rows: 2 });
      expect((await counted('risk-categories')) - beforeCats).toBe(r.written);
      expect(r.written).toBe(2);
    });

    it('adds nothing for a file that fails (its rows are rolled back)', async () => {
      const bad = dir.write(`bad-trades-${engine.name}.csv`, TRADES_HEADER, [...tradeLines(20, 'MSFT'), 'MSFT,,,4,1,not-a-time,1,1,2,3,3,,']);
      const before = await counted('trades');
      await expect(importFile(store, bad)).rejects.toThrow();
      expect(await counted('trades')).toBe(before);
    });
  });
}
