// Node's process.nextTick builds every tick object from one object literal, and the optimized
// code of its stream functions builds it inline while the literal's feedback names one hidden
// class per step. Hidden classes that no live object uses are collected; a full collection while
// no tick object is alive (an idle moment in a busy start-up) made V8 rebuild them, the feedback
// turned megamorphic for good, and every later nextTick took V8's generic path (about a quarter of
// a bare answer's rate, measured). The CLI keeps one object of that shape alive from its first
// import. Asserted on V8's own feedback states, with the same run without the module as the
// control that shows the failure the module prevents.
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const CHILD = fileURLToPath(new URL('../helpers/tick-feedback.ts', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'tb-tick-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(args: string[]): { states: string[]; sameMapAsShape: boolean | null } {
  // V8 prints with C stdio: to a file, since Node makes a stdout pipe non-blocking and such
  // writes can be lost on one
  const file = join(dir, `${args.join('-') || 'plain'}.out`);
  const fd = openSync(file, 'w');
  const r = spawnSync(process.execPath, ['--allow-natives-syntax', '--expose-gc', '--import', 'tsx', CHILD, ...args], { stdio: ['ignore', fd, 'pipe'], encoding: 'utf8', timeout: 60_000 });
  closeSync(fd);
  expect(r.status, r.stderr).toBe(0);
  const out = readFileSync(file, 'utf8');
  // the definitions of nextTick's literal: `- slot #N DefineKeyedOwnPropertyInLiteral MONOMORPHIC {`
  const states = [...out.matchAll(/slot #\d+ DefineKeyedOwnPropertyInLiteral (\w+)/g)].map((m) => m[1]!);
  const result = out.split('\n').find((l) => l.startsWith('{"sameMapAsShape"'));
  expect(result, out.slice(-500)).toBeDefined();
  return { states, ...(JSON.parse(result!) as { sameMapAsShape: boolean | null }) };
}

describe("nextTick's object literal keeps one hidden class per step", () => {
  it('with the CLI loaded, a full collection while no tick object lives leaves its feedback monomorphic', () => {
    const control = run([]);
    // without the kept object the collection makes the feedback megamorphic: the failure guarded against
    expect(control.states).toHaveLength(4);
    expect(control.states).toContain('MEGAMORPHIC');

    const kept = run(['with-shape']);
    expect(kept.states).toEqual(['MONOMORPHIC', 'MONOMORPHIC', 'MONOMORPHIC', 'MONOMORPHIC']);
    expect(kept.sameMapAsShape).toBe(true);
  });
});
