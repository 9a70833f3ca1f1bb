import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command, Option } from 'commander';
import type { Store } from '../store/index.js';
import { loadDemo } from '../demo/load.js';
import { lastExtendedSession, parseDate } from '../domain/calendar.js';
import { defaultBrandingDir } from '../routes/branding.js';
import { openStoreFromFlags, withStoreOptions, type StoreFlags } from './options.js';
import { accountService, generatePassword } from './users.js';
import { liveRateOption, runLiveDemo } from './live-demo.js';

export const DEMO_PLAN = 'demo';

/** Writes a secret to <dataDir>/<name>, readable by its owner only; returns the file's path. */
export function writeSecretFile(dataDir: string, name: string, secret: string): string {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, name);
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  chmodSync(file, 0o600); // the mode above applies only when the file is created
  return file;
}

/** Creates a key on the all-data demo plan and writes it to <dataDir>/demo-key (owner-only). */
export async function createDemoKey(store: Store, dataDir: string): Promise<string> {
  const { key } = await store.keys.create({ plan: DEMO_PLAN, label: 'demo' });
  writeSecretFile(dataDir, 'demo-key', key);
  return key;
}

export const DEMO_OPERATOR_EMAIL = 'operator@tickerbase.local';

/** Where `serve` keeps the demo operator's password (owner-only), as the demo key is in demo-key. */
export const OPERATOR_PASSWORD_FILE = 'operator-password';

/**
 * The demo's dashboard operator, created when the store has no account yet: returns its password
 * (to be printed once; only its hash is kept), or undefined when accounts already exist.
 */
export async function createDemoOperator(store: Store): Promise<{ email: string; password: string } | undefined> {
  if ((await store.accounts.count()) > 0) return undefined;
  const password = generatePassword();
  await accountService(store).createAccount({ email: DEMO_OPERATOR_EMAIL, password, plan: DEMO_PLAN, admin: true });
  return { email: DEMO_OPERATOR_EMAIL, password };
}

export function demoCommand(): Command {
  return withStoreOptions(new Command('demo').description('load the deterministic synthetic demo data set into the store'))
    .addOption(new Option('--scale <n>', 'scale factor for generated market data (benchmarks use more)').default('1'))
    .option('--as-of <date>', 'last session of the generated data, pinned: later starts do not roll it forward (default: the last completed session, rolled forward)')
    .option('--no-key', 'do not create a demo key')
    .option('--live', 'instead of loading, publish the live demo tape to a running server (--url, --admin-token) until stopped')
    .addOption(new Option('--url <url>', 'server of --live').env('TICKERBASE_URL').default('http://127.0.0.1:8080'))
    .addOption(new Option('--admin-token <token>', 'admin token of the server of --live').env('TICKERBASE_ADMIN_TOKEN'))
    .addOption(liveRateOption())
    .action(async (opts: StoreFlags & { scale: string; asOf?: string; key: boolean; live?: boolean; url: string; adminToken?: string; liveRate: number }) => {
      if (opts.live) return runLiveDemo(opts);
      const scale = Number(opts.scale);
      if (!(scale > 0 && scale <= 100)) throw new Error('--scale must be a number above 0 and at most 100');
      if (opts.asOf !== undefined && parseDate(opts.asOf) === null) throw new Error('--as-of must be a date YYYY-MM-DD');
      const store = await openStoreFromFlags(opts);
      try {
        const asOf = opts.asOf ?? lastExtendedSession(Date.now());
        await loadDemo(store, { scale, asOf, pinned: opts.asOf !== undefined, brandingDir: defaultBrandingDir(opts.dataDir), log: (l) => process.stderr.write(`${l}\n`) });
        await store.refreshStatistics();
        if (opts.key) {
          const key = await createDemoKey(store, opts.dataDir);
          process.stderr.write(`demo key written to ${join(opts.dataDir, 'demo-key')}:\n`);
          process.stdout.write(`${key}\n`);
        }
      } finally {
        await store.close();
      }
    });
}
