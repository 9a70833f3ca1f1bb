// The layer rules of .dependency-cruiser.cjs hold for src/, and they would catch an upward import.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { cruise, type ICruiseResult, type IViolation } from 'dependency-cruiser';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const config = createRequire(import.meta.url)(join(ROOT, '.dependency-cruiser.cjs'));

async function violations(baseDir: string): Promise<IViolation[]> {
  const previous = process.cwd();
  process.chdir(baseDir); // the rules match paths relative to the cruised tree's root
  try {
    const { output } = await cruise(['src'], { ...config.options, validate: true, ruleSet: { forbidden: config.forbidden } });
    return (output as ICruiseResult).summary.violations;
  } finally {
    process.chdir(previous);
  }
}

const describeRule = (v: IViolation) => `${v.rule.name}: ${v.from} → ${v.to}`;

describe('layers of src/', () => {
  it('no file imports from a higher layer or a sibling folder, and no imports run in a circle', async () => {
    const found = await violations(ROOT);
    expect(found.map(describeRule)).toEqual([]);
  }, 60_000);

  const tree = mkdtempSync(join(tmpdir(), 'tickerbase-layers-'));
  afterAll(() => rmSync(tree, { recursive: true, force: true }));
  const write = (path: string, text: string) => {
    mkdirSync(join(tree, path, '..'), { recursive: true });
    writeFileSync(join(tree, path), text);
  };

  it('reports a domain file that imports the HTTP shell, a service that imports a sibling ingest module, and a route that imports a store type', async () => {
    write('tsconfig.json', JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true }, include: ['src'] }));
    write('src/server/errors.ts', 'export const x = 1;\n');
    write('src/ingest/csv.ts', 'export const y = 2;\n');
    write('src/domain/bars.ts', "import { x } from '../server/errors.js';\nexport const z = x;\n");
    write('src/services/aggregates.ts', "import { y } from '../ingest/csv.js';\nexport const w = y;\n");
    write('src/routes/tickers.ts', "import { z } from '../domain/bars.js';\nexport const ok = z;\n");
    write('src/store/records.ts', 'export interface TickerRecord { ticker: string }\n');
    write('src/routes/last.ts', "import type { TickerRecord } from '../store/records.js';\nexport const t: TickerRecord = { ticker: 'A' };\n");
    const found = (await violations(tree)).map(describeRule).sort();
    expect(found).toEqual([
      'layer-domain: src/domain/bars.ts → src/server/errors.ts',
      'layer-services: src/services/aggregates.ts → src/ingest/csv.ts',
      'routes-not-store: src/routes/last.ts → src/store/records.ts',
    ]);
  }, 60_000);
});
