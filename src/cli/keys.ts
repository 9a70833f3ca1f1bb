import { Command, Option } from 'commander';
import { loadPlans } from '../server/plans.js';
import { openExistingStoreFromFlags, openStoreFromFlags, withStoreOptions, type StoreFlags } from './options.js';

const plansOption = () => new Option('--plans <file>', 'JSON file of plans (as given to serve)').env('TICKERBASE_PLANS');

function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export function keysCommand(): Command {
  const keys = new Command('keys').description('issue, list and revoke API keys');

  withStoreOptions(keys.command('create').description('create a key; prints it once, as the last line of stdout'))
    .option('--plan <name>', 'plan of the key (default: the configured default plan, free)')
    .option('--label <text>', 'a label to recognise the key by')
    .option('--expires <iso-date>', 'expiry time (ISO 8601), in the future')
    .addOption(plansOption())
    .action(async (opts: StoreFlags & { plan?: string; label?: string; expires?: string; plans?: string }) => {
      const plans = loadPlans(opts.plans || undefined);
      const plan = opts.plan ?? plans.defaultPlan;
      if (!plans.get(plan)) throw new Error(`--plan must be one of: ${plans.names().join(', ')} (got ${plan})`);
      let expires: string | undefined;
      if (opts.expires) {
        const t = Date.parse(opts.expires);
        if (Number.isNaN(t)) throw new Error(`--expires must be an ISO 8601 date or time, got ${opts.expires}`);
        if (t <= Date.now()) throw new Error(`--expires must be in the future, got ${opts.expires}`);
        expires = new Date(t).toISOString();
      }
      const store = await openStoreFromFlags(opts);
      try {
        const { key, record } = await store.keys.create({ plan, label: opts.label, expires_utc: expires });
        process.stderr.write(`created ${record.id} (plan ${record.plan}${record.label ? `, label ${record.label}` : ''}); the key is shown once:\n`);
        process.stdout.write(`${key}\n`);
      } finally {
        await store.close();
      }
    });

  withStoreOptions(keys.command('list').description('list keys with label, expiry and usage (never the keys themselves)'))
    .option('--json', 'print JSON')
    .action(async (opts: StoreFlags & { json?: boolean }) => {
      const store = await openExistingStoreFromFlags(opts);
      try {
        const now = Date.now();
        const [today, month] = await Promise.all([store.usage.totalsSince(utcDay(now)), store.usage.totalsSince(utcDay(now - 29 * 86_400_000))]);
        const list = (await store.keys.list()).map((k) => ({
          ...k,
          usage: { requests_today: today.get(k.id)?.requests ?? 0, requests_30_days: month.get(k.id)?.requests ?? 0, errors_30_days: month.get(k.id)?.errors ?? 0 },
        }));
        if (opts.json) {
          process.stdout.write(`${JSON.stringify(list, null, 2)}\n`);
          return;
        }
        process.stdout.write('id\tprefix\tplan\tlabel\tcreated\tstatus\trequests today\trequests 30 days\n');
        for (const k of list) {
          const expired = k.expires_utc && Date.parse(k.expires_utc) <= now;
          const status = k.revoked_utc ? `revoked ${k.revoked_utc}` : expired ? `expired ${k.expires_utc}` : k.expires_utc ? `expires ${k.expires_utc}` : 'active';
          process.stdout.write(`${k.id}\t${k.prefix}…\t${k.plan}\t${k.label ?? ''}\t${k.created_utc}\t${status}\t${k.usage.requests_today}\t${k.usage.requests_30_days}\n`);
        }
      } finally {
        await store.close();
      }
    });

  withStoreOptions(keys.command('revoke').description('revoke a key by id').argument('<id>', 'key id, as shown by keys list'))
    .action(async (id: string, opts: StoreFlags) => {
      const store = await openExistingStoreFromFlags(opts);
      try {
        if (!(await store.keys.revoke(id))) {
          process.stderr.write(`no active key with id ${id}\n`);
          process.exitCode = 1;
          return;
        }
        process.stdout.write(`revoked ${id}\n`);
      } finally {
        await store.close();
      }
    });
  return keys;
}
