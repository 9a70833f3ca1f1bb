import { randomBytes } from 'node:crypto';
import { Command, Option } from 'commander';
import { AccountService } from '../services/accounts.js';
import { loadPlans } from '../server/plans.js';
import type { Store } from '../store/index.js';
import { openExistingStoreFromFlags, openStoreFromFlags, withStoreOptions, type StoreFlags } from './options.js';

// `tickerbase users`: dashboard accounts from the command line (for closed sign-up, and for the
// first operator of a server). A password is read from stdin with --password-stdin, or generated
// and printed once.

const plansOption = () => new Option('--plans <file>', 'JSON file of plans (as given to serve)').env('TICKERBASE_PLANS');

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
}

/** A random password of 20 characters (120 bits). */
export function generatePassword(): string {
  return randomBytes(15).toString('base64url');
}

export function accountService(store: Store, plansFile?: string): AccountService {
  const plans = loadPlans(plansFile || undefined);
  return new AccountService(store, { defaultPlan: plans.defaultPlan, isPlan: (n) => plans.get(n) !== undefined });
}

export function usersCommand(): Command {
  const users = new Command('users').description('dashboard accounts: create and list');

  withStoreOptions(users.command('create').description('create a dashboard account (prints a generated password once unless --password-stdin)'))
    .requiredOption('--email <email>', 'email address of the account')
    .option('--admin', 'make the account an operator (admin)')
    .option('--plan <name>', 'plan of the account and its keys (default: the default plan)')
    .option('--password-stdin', 'read the password from stdin instead of generating one')
    .addOption(plansOption())
    .action(async (opts: StoreFlags & { email: string; admin?: boolean; plan?: string; passwordStdin?: boolean; plans?: string }) => {
      const password = opts.passwordStdin ? await readStdin() : generatePassword();
      const store = await openStoreFromFlags(opts);
      try {
        const account = await accountService(store, opts.plans).createAccount({ email: opts.email, password, plan: opts.plan, admin: opts.admin });
        process.stderr.write(`created ${account.id} ${account.email} (plan ${account.plan}${account.is_admin ? ', operator' : ''})\n`);
        if (!opts.passwordStdin) {
          process.stderr.write('password (shown once):\n');
          process.stdout.write(`${password}\n`);
        }
      } catch (err) {
        throw new Error(`users create: ${(err as Error).message}`);
      } finally {
        await store.close();
      }
    });

  withStoreOptions(users.command('list').description('list dashboard accounts'))
    .option('--json', 'print JSON')
    .action(async (opts: StoreFlags & { json?: boolean }) => {
      const store = await openExistingStoreFromFlags(opts);
      try {
        const list = await store.accounts.list();
        if (opts.json) {
          process.stdout.write(`${JSON.stringify(list, null, 2)}\n`);
          return;
        }
        process.stdout.write('id\temail\tplan\trole\tcreated\tstate\n');
        for (const a of list) process.stdout.write(`${a.id}\t${a.email}\t${a.plan}\t${a.is_admin ? 'operator' : 'user'}\t${a.created_utc}\t${a.disabled_utc ? 'disabled' : 'active'}\n`);
      } finally {
        await store.close();
      }
    });
  return users;
}
