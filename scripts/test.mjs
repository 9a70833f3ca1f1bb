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
  // A file whose setup fails has no failed test of its own: say so rather than "0 failed".
  const brokenFiles = (r.testResults ?? []).filter((f) => f.status === 'failed' && f.assertionResults.every((a) => a.status !== 'failed')).length;
  if (brokenFiles > 0) summary += `; ${brokenFiles} file(s) failed before their tests ran`;
} catch {
  // vitest died before writing its report; its own output says why.
}
rmSync(dir, { recursive: true, force: true });
console.log(summary);
process.exit(run.status ?? 1);
