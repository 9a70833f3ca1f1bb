// `npm test`: runs the whole vitest suite, then prints a plain "N passed, N failed, N skipped"
// summary line (CI reads it) and exits with vitest's status.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dir = mkdtempSync(join(tmpdir(), 'tickerbase-test-'));
const report = join(dir, 'report.json');
const run = spawnSync(
  process.execPath,
  ['node_modules/vitest/vitest.mjs', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...process.argv.slice(2)],
  { stdio: 'inherit' },
);
let summary = 'tests: summary unavailable';
try {
  const r = JSON.parse(readFileSync(report, 'utf8'));
  const skipped = (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
  summary = `tests: ${r.numPassedTests} passed, ${r.numFailedTests} failed, ${skipped} skipped`;
} catch {
  // vitest died before writing its report; its own output says why.
}
rmSync(dir, { recursive: true, force: true });
console.log(summary);
process.exit(run.status ?? 1);
