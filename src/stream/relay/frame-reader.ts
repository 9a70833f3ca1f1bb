// Reading relayed frames for the recorder off the event loop. Parsing each frame again with
// exact integers, checking its events and packing their rows cost the relay's event loop about
// 4-5 ms of CPU per 1,000 events; and frames held there while a run gathered, and the objects
// read from them until their write committed, survived young-generation collections, which
// copied and promoted them: pauses of 5-15 ms that delayed deliveries to every client. Here each
// frame's text goes to a thread of its own (record-worker.ts) as soon as it is relayed; that
// thread gathers the runs (run-gatherer.ts), reads them and answers with columns, so the event
// loop keeps nothing of a frame and only hands columns on to the store. Where no thread can be
// started (no compiled worker beside this module), or after the thread failed, frames are
// gathered and read on the event loop.
import { Worker } from 'node:worker_threads';
import { workerSource, type WorkerSource } from '../../store/worker-source.js';
import { readFrames, type RecordBatch, type RelayedFrame } from './record-batch.js';
import { RunGatherer } from './run-gatherer.js';

/** How runs are gathered (RunGatherer). */
export interface RunShape {
  gatherMs: number;
  maxEvents: number;
}

export interface FrameReaderOptions extends RunShape {
  /** false: gather and read on the event loop (as where no thread can be started). */
  thread?: boolean;
}

export type ReaderRequest = { kind: 'frame'; frame: RelayedFrame; events: number } | { kind: 'flush' };

/** A run read, or the events of a run that could not be read. */
export type RunResult = { events: number; batch: RecordBatch } | { events: number; error: string };

let source: WorkerSource | null | undefined;

export class FrameReader {
  private worker: Worker | undefined;
  /** Events sent to the thread and not answered yet. */
  private inThread = 0;
  private closed = false;
  /** Gathers on the event loop, once no thread is to be had. */
  private inline: RunGatherer | undefined;

  constructor(
    private readonly opts: FrameReaderOptions,
    /** Each run's result, in the order the frames were added. */
    private readonly onRun: (run: RunResult) => void,
  ) {}

  /** Adds a relayed frame holding `events` data events. */
  add(frame: RelayedFrame, events: number): void {
    if (this.closed) return;
    if (source === undefined) source = workerSource(import.meta.url, 'record-worker');
    if (source === null || this.inline || this.opts.thread === false) return this.onLoop().add(frame, events);
    const worker = this.worker ?? this.start(source);
    if (this.inThread === 0) worker.ref(); // frames being read keep the process up
    this.inThread += events;
    worker.postMessage({ kind: 'frame', frame, events } satisfies ReaderRequest);
  }

  /** Ends the run being gathered now. */
  flush(): void {
    if (this.inline) this.inline.flush();
    else if (this.worker && this.inThread > 0) this.worker.postMessage({ kind: 'flush' } satisfies ReaderRequest);
  }

  async close(): Promise<void> {
    this.closed = true;
    const w = this.worker;
    this.worker = undefined;
    if (w) await w.terminate();
  }

  private onLoop(): RunGatherer {
    this.inline ??= new RunGatherer(this.opts.gatherMs, this.opts.maxEvents, (frames, events) => {
      // a turn later, so a run ended by a frame does not hold the relay that added it
      setImmediate(() => {
        let result: RunResult;
        try {
          result = { events, batch: readFrames(frames).batch };
        } catch (err) {
          result = { events, error: String((err as Error)?.message ?? err) };
        }
        this.onRun(result);
      });
    });
    return this.inline;
  }

  private start(where: WorkerSource): Worker {
    const w = new Worker(where.filename, { eval: where.eval, execArgv: [], workerData: { gatherMs: this.opts.gatherMs, maxEvents: this.opts.maxEvents } satisfies RunShape, resourceLimits: { maxYoungGenerationSizeMb: 16 } });
    w.unref();
    w.on('message', (m: RunResult) => {
      this.inThread -= m.events;
      if (this.inThread === 0) w.unref();
      this.onRun(m);
    });
    // a thread that failed loses the frames it held (told as one failed run); later ones are read on the event loop
    const lost = (err: Error) => {
      if (this.worker !== w) return;
      this.worker = undefined;
      this.onLoop();
      const events = this.inThread;
      this.inThread = 0;
      if (events > 0) this.onRun({ events, error: `the recorder's reading thread ended: ${err.message}` });
    };
    w.on('error', lost);
    w.on('exit', (code) => lost(new Error(`exit code ${code}`)));
    this.worker = w;
    return w;
  }
}
