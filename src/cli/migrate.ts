import { Command } from 'commander';
import { openStore } from '../store/index.js';
import { withStoreOptions, type StoreFlags } from './options.js';

export function migrateCommand(): Command {
  return withStoreOptions(new Command('migrate').description('apply pending schema migrations')).action(async (opts: StoreFlags) => {
    const store = await openStore({ dataDir: opts.dataDir, databaseUrl: opts.databaseUrl || undefined, migrate: false });
    try {
      const applied = await store.migrate();
      process.stdout.write(applied.length ? `applied ${applied.join(', ')}\n` : 'schema is up to date\n');
    } finally {
      await store.close();
    }
  });
}
