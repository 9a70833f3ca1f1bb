// `tickerbase sync`: bring data from upstream into the store (`sync flatfiles`, `sync rest`, `sync status`).
import { Command } from 'commander';
import { syncFlatFilesCommand } from './sync-flatfiles.js';
import { syncRestCommand } from './sync-rest.js';
import { syncStatusCommand } from './sync-status.js';

export function syncCommand(): Command {
  return new Command('sync')
    .description("bring data from upstream into the store: its flat files over S3, or its REST API")
    .addCommand(syncFlatFilesCommand())
    .addCommand(syncRestCommand())
    .addCommand(syncStatusCommand());
}
