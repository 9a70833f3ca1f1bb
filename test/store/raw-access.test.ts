// Only the store runs SQL: application code reaches the engine through repositories, never
// through the driver. Tests and benchmarks may inspect it with store/inspect.ts; src/ may not.
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '../../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
}

describe('raw SQL access', () => {
  const files = sourceFiles(SRC).map((f) => ({ path: relative(SRC, f), text: readFileSync(f, 'utf8') }));

  it('no file in src/ imports store/inspect.ts', () => {
    const importers = files.filter((f) => /from '[^']*\binspect\.js'/.test(f.text) && f.path !== 'store/inspect.ts').map((f) => f.path);
    expect(importers).toEqual([]);
  });

  it('no file outside src/store/ imports the engines or builds a repository over a driver', () => {
    const outside = files.filter((f) => !f.path.startsWith('store/'));
    const offenders = outside
      .filter((f) => /from '[^']*store\/(sqlite|postgres)\/|new [A-Z]\w*Repository\(|\bSqlDriver\b/.test(f.text))
      .map((f) => f.path);
    expect(offenders).toEqual([]);
  });
});
