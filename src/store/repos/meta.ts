import { randomBytes } from 'node:crypto';
import type { SqlDriver } from '../driver.js';

export class MetaRepository {
  constructor(private readonly db: SqlDriver) {}

  async get(key: string): Promise<string | undefined> {
    const row = await this.db.get('SELECT value FROM meta WHERE key = ?', [key]);
    return row ? String(row.value) : undefined;
  }

  async set(key: string, value: string): Promise<void> {
    await this.db.run('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value', [key, value]);
  }

  /** A value created once and then shared by every process on this store (first writer wins). */
  async getOrCreate(key: string, make: () => string): Promise<string> {
    // Read first: every start asks for its secrets, and once they exist that needs no write lock.
    const existing = await this.get(key);
    if (existing !== undefined) return existing;
    await this.db.run('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING', [key, make()]);
    return (await this.get(key)) as string;
  }

  /** Secret that signs pagination cursors, so a cursor issued by one process is honoured by all. */
  cursorSecret(): Promise<string> {
    return this.getOrCreate('cursor_secret', () => randomBytes(32).toString('hex'));
  }
}
