// `tickerbase sync`: bring data from upstream into the store (`sync rest`, `sync status`).
import { Command } from 'commander';
import { syncRestCommand } from './sync-rest.js';
import { syncStatusCommand } from './sync-status.js';

export function syncCommand(): Command {
  return new Command('sync').description('bring data from upstream into the store').addCommand(syncRestCommand()).addCommand(syncStatusCommand());
}
