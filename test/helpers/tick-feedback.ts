// In a process of its own: optionally imports the CLI's tick-shape module, lets a few hundred
// nextTick objects come and go, runs two full collections while none is alive, makes a few more,
// and prints V8's feedback states of the property definitions in nextTick's object literal
// (one line per slot, from %DebugPrint) and, with the module imported, whether a tick object made
// after the collections has the same hidden class as the module's object.
// Run with --allow-natives-syntax --expose-gc. Args: [with-shape].
import { createHook } from 'node:async_hooks';

const withShape = process.argv[2] === 'with-shape';
const shape = withShape ? (await import('../../src/cli/tick-shape.js')).TICK_SHAPE : undefined;
// natives syntax only parses where the flag is on: in code compiled at run time
const debugPrint = new Function('f', '%DebugPrint(f)') as (f: unknown) => void;
const haveSameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: unknown, b: unknown) => boolean;

for (let i = 0; i < 300; i++) await new Promise((r) => process.nextTick(r));
await new Promise((r) => setTimeout(r, 20));
global.gc!();
global.gc!();
for (let i = 0; i < 5; i++) await new Promise((r) => process.nextTick(r));

let tick: object | undefined;
const hook = createHook({
  init(_id, type, _trigger, resource) {
    if (type === 'TickObject' && tick === undefined) tick = resource as object;
  },
}).enable();
process.nextTick(() => {});
hook.disable();

debugPrint(process.nextTick);
process.stdout.write(`\n${JSON.stringify({ sameMapAsShape: shape === undefined ? null : haveSameMap(tick, shape) })}\n`);
