import { InvalidArgumentError, Option, type Command } from 'commander';
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
