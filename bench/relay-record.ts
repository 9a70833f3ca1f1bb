// Benchmark of the relay's recording alone (not a test): the main thread's cost of recording
// frames of 20 trades, shaped as bench/relay-upstream.ts sends them, at 20,000 events a second
// into a SQLite file (whose writes run on the store's write thread), with the app's live-write
// listeners (live snapshot state, live versions) attached as in `serve --relay`. Prints the main
// thread's CPU time per 1,000 recorded events (its own work and its GC, not the write thread's:
// read from /proc for that thread alone, so other load on a shared machine moves it little), the
// GC pauses, and the same run's pacing loop alone as the baseline.
// Usage: node --import tsx bench/relay-record.ts [--seconds N]
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance, PerformanceObserver } from 'node:perf_hooks';
import { buildApp } from '../src/app.js';
import { openStore } from '../src/store/index.js';
import { RelayRecorder } from '../src/stream/relay/recorder.js';

const i = process.argv.indexOf('--seconds');
const SECONDS = i >= 0 ? Number(process.argv[i + 1]) : 5;
const RATE = 20_000;
const PER_FRAME = 20;

let seq = 0;
function frame(): string {
  const parts: string[] = [];
  for (let k = 0; k < PER_FRAME; k++) {
    seq++;
    parts.push(`{"ev":"T","sym":"S${seq % 500}","x":4,"i":"${seq}","z":3,"p":${100 + (seq % 100) / 100},"s":100,"t":${1749825067412 + seq},"q":${seq}}`);
  }
  return `[${parts.join(',')}]`;
}

/** CPU ms of this process's main thread alone (Linux: /proc/self/task/<pid>/stat, utime and stime in clock ticks of 10 ms). */
function mainThreadCpuMs(): number {
  const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

let gcTotal = 0;
let gcMax = 0;
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    gcTotal += e.duration;
    gcMax = Math.max(gcMax, e.duration);
  }
}).observe({ entryTypes: ['gc'] });

/** Adds a frame every millisecond or so for SECONDS (when `recorder` is given), then waits for its writes; the main thread's CPU ms and GC. */
async function run(recorder: RelayRecorder | undefined): Promise<{ cpuMs: number; otherMs: number; gcMs: number; gcMaxMs: number; events: number }> {
  const frames = Array.from({ length: (RATE / PER_FRAME) * SECONDS }, frame);
  gcTotal = gcMax = 0;
  const cpu = mainThreadCpuMs();
  const all = process.cpuUsage();
  const start = performance.now();
  let sent = 0;
  while (sent < frames.length) {
    const due = Math.min(frames.length, Math.floor(((performance.now() - start) * RATE) / PER_FRAME / 1000));
    for (; sent < due; sent++) recorder?.add('stocks', frames[sent]!, PER_FRAME);
    await new Promise((r) => setTimeout(r, 1));
  }
  await recorder?.idle();
  const mainMs = mainThreadCpuMs() - cpu;
  const used = process.cpuUsage(all);
  return { cpuMs: mainMs, otherMs: (used.user + used.system) / 1000 - mainMs, gcMs: gcTotal, gcMaxMs: gcMax, events: frames.length * PER_FRAME };
}

const dir = mkdtempSync(join(tmpdir(), 'tickerbase-relay-record-'));
const store = await openStore({ dataDir: dir });
const app = await buildApp({ store, config: { envelope: 'native' } });
const recorder = new RelayRecorder({ store, log: (m, err) => console.error(m, err) });
await run(recorder); // warm-up: the write thread started, the code compiled
const base = await run(undefined);
const rec = await run(recorder);
const per1k = (ms: number, n: number) => ((ms * 1000) / n).toFixed(2);
console.log(`relay recording: ${rec.events.toLocaleString('en-US')} trades at ${RATE.toLocaleString('en-US')}/s into a SQLite file; ${recorder.counts.recorded.toLocaleString('en-US')} recorded in all`);
console.log(`  main thread CPU ${per1k(rec.cpuMs, rec.events)} ms per 1,000 events (pacing alone ${per1k(base.cpuMs, base.events)}); GC ${rec.gcMs.toFixed(0)} ms in all, longest ${rec.gcMaxMs.toFixed(1)} ms (pacing alone ${base.gcMs.toFixed(0)} ms)`);
console.log(`  other threads (the write thread and the recorder's reading thread) CPU ${per1k(rec.otherMs, rec.events)} ms per 1,000 events (pacing alone ${per1k(base.otherMs, base.events)})`);
await app.close();
await recorder.close();
await store.close();
rmSync(dir, { recursive: true, force: true });
