import './tick-shape.js'; // first: see tick-shape.ts
import { Command, CommanderError } from 'commander';
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
  throwInsteadOfExit(program);
  return program;
}

/**
 * Commander ends the process itself (process.exit) on a bad flag, --help or --version unless told
 * to throw; main turns the throw into an exit code, so the CLI also runs inside another program
 * (a test runner, an embedding script) without ending it, and pending output is flushed.
 */
function throwInsteadOfExit(cmd: Command): void {
  cmd.exitOverride();
  for (const sub of cmd.commands) throwInsteadOfExit(sub);
}

export async function main(argv: string[]): Promise<void> {
  try {
    await buildCli().parseAsync(argv);
  } catch (err) {
    if (err instanceof CommanderError) {
      // commander has already written its message (or the help) to the terminal
      process.exitCode = err.exitCode;
      return;
    }
    process.stderr.write(`tickerbase: ${(err as Error).message}\n`);
    process.exitCode = 2;
  }
}
