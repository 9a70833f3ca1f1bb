// The relay recorder's reading thread (frame-reader.ts): gathers the relayed frames it is sent
// into runs (run-gatherer.ts), turns each run into what the store writes (record-batch.ts) and
// answers with it, in the order the frames came, at a lower priority than the event loop.
//
// No top-level await: under tsx (tests, benches) this file is loaded through tsx's CommonJS hook.
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { readFrames } from './record-batch.js';
import type { ReaderRequest, RunResult, RunShape } from './frame-reader.js';
import { RunGatherer } from './run-gatherer.js';

/**
 * This thread yields the CPU to the relay's event loop: on Linux a thread has a nice value of its
 * own, so this one's is raised to 10 and the loop delivering to clients runs first when both
 * want a core (recording runs behind delivery anyway). Elsewhere, or where that is refused, the
 * thread keeps the process's priority.
 */
function yieldToDelivery(): void {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid !== process.pid) setPriority(tid, 10);
  } catch {
    // no /proc/thread-self, or not allowed
  }
}

yieldToDelivery();
const runs = new RunGatherer((workerData as RunShape).gatherMs, (workerData as RunShape).maxEvents, (frames, events) => {
  let reply: RunResult;
  let transfer: ArrayBuffer[] = [];
  try {
    const read = readFrames(frames);
    reply = { events, batch: read.batch };
    transfer = read.transfer;
  } catch (err) {
    reply = { events, error: String((err as Error)?.message ?? err) };
  }
  parentPort!.postMessage(reply, transfer);
});
parentPort!.on('message', (m: ReaderRequest) => {
  if (m.kind === 'frame') runs.add(m.frame, m.events);
  else runs.flush();
});
