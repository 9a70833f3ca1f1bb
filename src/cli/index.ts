import './tick-shape.js'; // first: see tick-shape.ts
import { Command } from 'commander';
import { demoCommand } from './demo.js';
import { importCommand } from './import.js';
import { keysCommand } from './keys.js';
import { migrateCommand } from './migrate.js';
import { publishCommand } from './publish.js';
import { serveCommand } from './serve.js';
import { syncCommand } from './sync.js';
import { usersCommand } from './users.js';

export function buildCli(): Command {
  const program = new Command('tickerbase')
    .description('Self-hosted market data REST API server (Polygon.io / Massive compatible)')
    .version('0.1.0')
    .showHelpAfterError();
  program.addCommand(serveCommand());
  program.addCommand(keysCommand());
  program.addCommand(usersCommand());
  program.addCommand(demoCommand());
  program.addCommand(importCommand());
  program.addCommand(migrateCommand());
  program.addCommand(publishCommand());
  program.addCommand(syncCommand());
  return program;
}

export async function main(argv: string[]): Promise<void> {
  try {
    await buildCli().parseAsync(argv);
  } catch (err) {
    process.stderr.write(`tickerbase: ${(err as Error).message}\n`);
    process.exitCode = 2;
  }
}
