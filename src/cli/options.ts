import { Option, type Command } from 'commander';
import { openStore, type Store } from '../store/index.js';

export interface StoreFlags {
  dataDir: string;
  databaseUrl?: string;
}

/** --data-dir and --database-url, with their environment twins, on every command that opens the store. */
export function withStoreOptions(cmd: Command): Command {
  return cmd
    // an empty TICKERBASE_DATA_DIR= means "not set", as an empty DATABASE_URL does
    .addOption(new Option('--data-dir <dir>', 'directory of the embedded SQLite store').env('TICKERBASE_DATA_DIR').default('./data').argParser((v: string) => (v.trim() === '' ? './data' : v)))
    .addOption(new Option('--database-url <url>', 'PostgreSQL connection string (uses PostgreSQL instead of SQLite)').env('DATABASE_URL'));
}

export function openStoreFromFlags(flags: StoreFlags): Promise<Store> {
  return openStore({ dataDir: flags.dataDir, databaseUrl: flags.databaseUrl || undefined });
}

export function parseIntFlag(name: string, min: number, max: number) {
  return (value: string): number => {
    const n = value.trim() === '' ? NaN : Number(value); // Number('') is 0, which would pass
    if (!Number.isInteger(n) || n < min || n > max) throw new Error(`${name} must be an integer from ${min} to ${max}`);
    return n;
  };
}
