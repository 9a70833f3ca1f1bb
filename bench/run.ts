// `npm run bench`: runs every benchmark in turn and prints their figures (not a test).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const only = process.argv.slice(2);
const all = ['http', 'reference', 'import', 'aggs', 'snapshots', 'financials', 'news', 'dashboard', 'stream-fanout', 'import-contention', 'silent-db', 'sync-rest-calls', 'tick-list-read'];
for (const name of only.length ? only : all) {
  const file = `bench/${name}.ts`;
  if (!existsSync(file)) continue;
  console.log(`\n=== ${name} ===`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', file], { stdio: 'inherit' });
  if (r.status !== 0) console.log(`(${name} exited with ${r.status})`);
}
