// Benchmark of the relay's read of an upstream frame (not a test): CPU time per frame of 20 trades
// shaped as bench/relay-upstream.ts sends them, for the relay's read (relayedEvents: the JSON
// check, each event's channel, symbol and own text) against JSON.parse alone and against parsing
// with exact integers and writing every event anew (what the relay did before), in the same run.
// CPU time, not wall time, so that other load on a shared machine moves the figures less.
// Usage: node --import tsx bench/relay-frame-read.ts [--frames N]
import { parseJsonExact } from '../src/domain/exact-json.js';
import type { WireEvent } from '../src/stream/json.js';
import { toBrokerEvent } from '../src/stream/publisher.js';
import { relayedEvents } from '../src/stream/relay/pass-through.js';

const i = process.argv.indexOf('--frames');
const FRAMES = i >= 0 ? Number(process.argv[i + 1]) : 2000;
const ROUNDS = 5;

let seq = 0;
function frame(n: number): string {
  const parts: string[] = [];
  for (let k = 0; k < n; k++) {
    seq++;
    const head = k === 0 ? `"~":${n},"lt":${1_700_000_000_000 + seq},` : '';
    parts.push(`{${head}"ev":"T","sym":"S${seq % 500}","x":4,"i":"${seq}","z":3,"p":${100 + (seq % 100) / 100},"s":100,"c":[14,41],"t":${1749825067412 + seq},"q":${seq}}`);
  }
  return `[${parts.join(',')}]`;
}
const frames = Array.from({ length: FRAMES }, () => frame(20));

/** CPU µs per frame, the best of ROUNDS passes after a warm-up pass. */
function cost(read: (text: string) => unknown): number {
  for (const t of frames) read(t);
  let best = Infinity;
  for (let r = 0; r < ROUNDS; r++) {
    const start = process.cpuUsage();
    for (const t of frames) read(t);
    const used = process.cpuUsage(start);
    best = Math.min(best, (used.user + used.system) / FRAMES);
  }
  return best;
}

const relay = cost((t) => relayedEvents(t, 'stocks'));
const parse = cost((t) => JSON.parse(t));
const rewrite = cost((t) => (parseJsonExact(t) as WireEvent[]).map((e) => toBrokerEvent(e, 'stocks')));
console.log(`relay frame read: ${FRAMES} frames of 20 trades (${frames[0]!.length} bytes each), CPU µs per frame, best of ${ROUNDS}`);
console.log(`  relay's read              ${relay.toFixed(1)} µs`);
console.log(`  JSON.parse alone          ${parse.toFixed(1)} µs (relay's read is ${(relay / parse).toFixed(2)} of it)`);
console.log(`  exact parse + re-encode   ${rewrite.toFixed(1)} µs (relay's read is ${(relay / rewrite).toFixed(2)} of it)`);
