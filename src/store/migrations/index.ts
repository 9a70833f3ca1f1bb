// Schema migrations are plain SQL files, one folder per engine (sqlite/, postgres/), named
// NNNN_name.sql; the file name without .sql is the migration id recorded in schema_migrations.
// Both folders hold the same ids. Id ranges per area: 00xx foundation, 01xx market data,
// 02xx options, 03xx data sets, news and corporate actions, 04xx production, 05xx dashboard
// accounts, 06xx stored wire JSON, 07xx futures, 08xx partner, economy and filings data sets,
// 09xx later markets, data sets and storage changes.
// A new file sorts after every released one.
// The files are read next to this module: from src/ under tsx and vitest, from dist/ in the
// compiled CLI (the build copies them there with scripts/copy-sql.mjs).
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { SqlDriver } from '../driver.js';

export interface MigrationFile {
  id: string;
  sql: string;
}

const FILE_NAME = /^(\d{4}_[a-z0-9_]+)\.sql$/;

/** The migrations of one engine, in id order. */
export function listMigrations(engine: SqlDriver['engine']): MigrationFile[] {
  const dir = new URL(`./${engine}/`, import.meta.url);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (err) {
    throw new Error(`schema migrations not found in ${fileURLToPath(dir)} (${(err as Error).message}); a build copies them there`, { cause: err });
  }
  return names
    .map((name) => FILE_NAME.exec(name)?.[1])
    .filter((id): id is string => id !== undefined)
    .sort()
    .map((id) => ({ id, sql: readFileSync(new URL(`${id}.sql`, dir), 'utf8') }));
}

/** Applies every migration not yet recorded, in id order; safe to run from several processes at once. */
export async function migrate(db: SqlDriver): Promise<string[]> {
  const migrations = listMigrations(db.engine);
  // Nothing to apply: answered by a read, so a start while an import holds SQLite's write lock
  // does not wait for it.
  if (await allApplied(db, migrations)) return [];
  return db.transaction(async (tx) => {
    if (tx.engine === 'postgres') {
      // One migrator at a time across processes; the lock id is any constant, it names no row.
      await tx.exec('SELECT pg_advisory_xact_lock(7242001)');
    }
    await tx.exec('CREATE TABLE IF NOT EXISTS schema_migrations (id TEXT PRIMARY KEY, applied_utc TEXT NOT NULL)');
    const done = new Set((await tx.all('SELECT id FROM schema_migrations')).map((r) => String(r.id)));
    const applied: string[] = [];
    for (const m of migrations) {
      if (done.has(m.id)) continue;
      await tx.exec(m.sql);
      await tx.run('INSERT INTO schema_migrations (id, applied_utc) VALUES (?, ?)', [m.id, new Date().toISOString()]);
      applied.push(m.id);
    }
    return applied;
  });
}

async function allApplied(db: SqlDriver, migrations: readonly MigrationFile[]): Promise<boolean> {
  try {
    const done = new Set((await db.all('SELECT id FROM schema_migrations')).map((r) => String(r.id)));
    return migrations.every((m) => done.has(m.id));
  } catch {
    return false; // no schema_migrations table yet: a new store
  }
}
