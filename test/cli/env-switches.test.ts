// A boolean flag's environment twin is read for its value: TICKERBASE_NO_DEMO_ROLL=0, false or
// empty leaves the demo roll on; 1, true, yes, on turn it off; anything else is refused by name.
// The serve command is parsed in this process with its action replaced, so nothing starts.
import { CommanderError } from 'commander';
import { afterEach, describe, expect, it } from 'vitest';
import { serveCommand } from '../../src/cli/serve.js';

const VARS = ['TICKERBASE_NO_DEMO_ROLL', 'TICKERBASE_TRUST_PROXY'] as const;
const saved = Object.fromEntries(VARS.map((v) => [v, process.env[v]]));

/** The serve flags for these arguments and environment, or the error commander reports. */
async function serveFlags(args: string[], env: Partial<Record<(typeof VARS)[number], string>>) {
  for (const v of VARS) {
    if (env[v] === undefined) delete process.env[v];
    else process.env[v] = env[v];
  }
  let err = '';
  let flags: { demoRoll: boolean; trustProxy: boolean } | undefined;
  const cmd = serveCommand().exitOverride().configureOutput({ writeErr: (s) => (err += s), writeOut: () => {} });
  cmd.action((opts) => {
    flags = opts;
  });
  try {
    await cmd.parseAsync(args, { from: 'user' });
  } catch (e) {
    if (!(e instanceof CommanderError)) throw e;
    return { error: err };
  }
  return { demoRoll: flags!.demoRoll, trustProxy: flags!.trustProxy };
}

afterEach(() => {
  for (const v of VARS) {
    if (saved[v] === undefined) delete process.env[v];
    else process.env[v] = saved[v];
  }
});

describe('boolean environment variables of serve', () => {
  it('TICKERBASE_NO_DEMO_ROLL: unset, empty, 0 and false roll; 1, true, yes and on do not', async () => {
    expect((await serveFlags([], {})).demoRoll).toBe(true);
    for (const value of ['', '0', 'false', 'FALSE', 'no', 'off']) expect((await serveFlags([], { TICKERBASE_NO_DEMO_ROLL: value })).demoRoll, value).toBe(true);
    for (const value of ['1', 'true', 'yes', 'on']) expect((await serveFlags([], { TICKERBASE_NO_DEMO_ROLL: value })).demoRoll, value).toBe(false);
  });

  it('--no-demo-roll on the command line wins over TICKERBASE_NO_DEMO_ROLL=0', async () => {
    expect((await serveFlags(['--no-demo-roll'], { TICKERBASE_NO_DEMO_ROLL: '0' })).demoRoll).toBe(false);
  });

  it('TICKERBASE_TRUST_PROXY=false does not trust forwarded headers; =1 does', async () => {
    expect((await serveFlags([], { TICKERBASE_TRUST_PROXY: 'false' })).trustProxy).toBe(false);
    expect((await serveFlags([], { TICKERBASE_TRUST_PROXY: '1' })).trustProxy).toBe(true);
  });

  it('refuses a value that is neither on nor off, naming the variable', async () => {
    const { error } = await serveFlags([], { TICKERBASE_NO_DEMO_ROLL: 'maybe' });
    expect(error).toContain('TICKERBASE_NO_DEMO_ROLL must be 1, true, yes, on, or 0, false, no, off or empty (got "maybe")');
  });
});
