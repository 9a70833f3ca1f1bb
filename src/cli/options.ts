import { existsSync } from 'node:fs';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { openStore, sqliteFileOf, type Store } from '../store/index.js';

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

/**
 * For commands that read or change what a store holds (listing keys, revoking one): a data
 * directory with no store is a mistake to name (a wrong --data-dir, a different working
 * directory), not a reason to create an empty store there.
 */
export function openExistingStoreFromFlags(flags: StoreFlags): Promise<Store> {
  if (!flags.databaseUrl) {
    const file = sqliteFileOf(flags.dataDir);
    if (!existsSync(file)) {
      throw new Error(`no store in ${flags.dataDir} (${file} does not exist): give the --data-dir the server was started with, or --database-url for PostgreSQL`);
    }
  }
  return openStoreFromFlags(flags);
}

/**
 * A CLI line that runs as printed from the project's directory: `npx tickerbase <args>` with the
 * data directory of these flags. A PostgreSQL URL is never printed (it may hold a password): from
 * the environment, the same shell passes it on; given as a flag, the line leaves a place for it.
 */
export function cliLine(flags: StoreFlags, args: string, env: NodeJS.ProcessEnv = process.env): string {
  if (flags.databaseUrl) return env.DATABASE_URL === flags.databaseUrl ? `npx tickerbase ${args}` : `DATABASE_URL=… npx tickerbase ${args}`;
  return `npx tickerbase ${args} --data-dir ${shellWord(flags.dataDir)}`;
}

function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

export function parseIntFlag(name: string, min: number, max: number) {
  return (value: string): number => {
    const n = value.trim() === '' ? NaN : Number(value); // Number('') is 0, which would pass
    if (!Number.isInteger(n) || n < min || n > max) throw new Error(`${name} must be an integer from ${min} to ${max}`);
    return n;
  };
}

const ON = ['1', 'true', 'yes', 'on'];
const OFF = ['', '0', 'false', 'no', 'off'];

/** An on/off environment value: 1, true, yes, on; 0, false, no, off or empty (any case). */
export function parseEnvSwitch(name: string, value: string): boolean {
  const v = value.trim().toLowerCase();
  if (ON.includes(v)) return true;
  if (OFF.includes(v)) return false;
  throw new InvalidArgumentError(`${name} must be 1, true, yes, on, or 0, false, no, off or empty (got "${value}")`);
}

/**
 * Commander sets a boolean flag whenever its environment variable is present, whatever the value,
 * so TICKERBASE_NO_DEMO_ROLL=0 would turn the roll off. As a preAction hook this reads the value
 * instead: each boolean flag set from its variable becomes what the variable says (a --no-x flag
 * the opposite). A flag given on the command line is left as given.
 */
export function readEnvSwitches(cmd: Command): void {
  for (const option of cmd.options) {
    const key = option.attributeName();
    // a flag that takes no value: --x or --no-x
    if (!option.envVar || option.required || option.optional || cmd.getOptionValueSource(key) !== 'env') continue;
    let on: boolean;
    try {
      on = parseEnvSwitch(option.envVar, process.env[option.envVar] ?? '');
    } catch (err) {
      cmd.error(`error: ${(err as Error).message}`, { code: 'commander.invalidArgument' });
    }
    cmd.setOptionValueWithSource(key, option.negate ? !on : on, 'env');
  }
}
