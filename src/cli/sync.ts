import { Command } from 'commander';
import { syncFlatFilesCommand } from './sync-flatfiles.js';

/** `tickerbase sync <source>`: bring the store up to date with upstream's data. */
export function syncCommand(): Command {
  return new Command('sync').description("bring the store up to date with upstream's data (flat files over S3)").addCommand(syncFlatFilesCommand());
}
