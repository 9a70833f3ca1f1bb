import { Counter } from 'prom-client';

/** Rows written by committed file imports, by data set; the server's metrics registry exposes it. */
export const importRows = new Counter({
  name: 'tickerbase_import_rows_total',
  help: 'Rows written by imports, by data set',
  labelNames: ['dataset'] as const,
  registers: [],
});

/** Counts rows an importer wrote (so importers need not know prom-client). */
export function recordImportRows(dataset: string, rows: number): void {
  if (rows > 0) importRows.inc({ dataset }, rows);
}
