import type { SqlDriver } from '../driver.js';
import { foundation } from './0001_foundation.js';
import { options } from './0200_options.js';
import { marketData } from './0100_market_data.js';
import { datasets } from './0300_datasets.js';
import { newsSocial } from './0310_news_social.js';
import { splitsPerDay } from './0320_splits_per_day.js';
import { production } from './0400_production.js';
import { accounts } from './0500_accounts.js';

export interface Migration {
  /** Sorts in application order; ranges per area: 00xx foundation, 01xx market data, 02xx options/snapshots, 03xx fundamentals, 04xx production, 05xx accounts. */
  id: string;
  sqlite: string;
  postgres: string;
}

export const MIGRATIONS: Migration[] = [foundation, marketData, newsSocial, options, datasets, splitsPerDay, production, accounts].sort((a, b) => a.id.localeCompare(b.id));

/** Applies every migration not yet recorded; safe to run from several processes at once. */
export async function migrate(db: SqlDriver): Promise<string[]> {
  return db.transaction(async (tx) => {
    if (tx.engine === 'postgres') {
      await tx.exec('SELECT pg_advisory_xact_lock(7242001)');
    }
    await tx.exec('CREATE TABLE IF NOT EXISTS schema_migrations (id TEXT PRIMARY KEY, applied_utc TEXT NOT NULL)');
    const done = new Set((await tx.all('SELECT id FROM schema_migrations')).map((r) => String(r.id)));
    const applied: string[] = [];
    for (const m of MIGRATIONS) {
      if (done.has(m.id)) continue;
      await tx.exec(tx.engine === 'postgres' ? m.postgres : m.sqlite);
      await tx.run('INSERT INTO schema_migrations (id, applied_utc) VALUES (?, ?)', [m.id, new Date().toISOString()]);
      applied.push(m.id);
    }
    return applied;
  });
}
