// Holds the SQLite write lock of a database as an import does: BEGIN IMMEDIATE and an uncommitted
// insert. Prints "locked", commits on a "release" line on stdin (or after HOLD_MS), then prints
// "released <Date.now()>" and exits. Usage: node lock-holder.mjs <db file> [HOLD_MS]
import Database from 'better-sqlite3';
import { createInterface } from 'node:readline';

const [file, holdMs = '4000'] = process.argv.slice(2);
const db = new Database(file);
db.pragma('busy_timeout = 10000');
db.exec('BEGIN IMMEDIATE');
db.prepare('INSERT INTO minute_bars (ticker, t, o, h, l, c, v, vw, n) VALUES (?, ?, 1, 1, 1, 1, 1, NULL, 1)').run('UNCOMMITTED', 1_709_888_400_000);
let done = false;
const release = () => {
  if (done) return;
  done = true;
  db.exec('COMMIT');
  db.close();
  process.stdout.write(`released ${Date.now()}\n`);
  process.exit(0);
};
createInterface({ input: process.stdin }).on('line', (line) => {
  if (line.trim() === 'release') release();
});
setTimeout(release, Number(holdMs));
process.stdout.write('locked\n');
