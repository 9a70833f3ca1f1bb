// Relayed frames gathered into runs for the recorder: a run ends when it holds `maxEvents` data
// events (a frame is never split) or `gatherMs` after its first frame arrived, whichever is
// first, or when flushed. Used on the recorder's reading thread, or on the event loop where that
// thread cannot run.
import type { RelayedFrame } from './record-batch.js';

export class RunGatherer {
  private frames: RelayedFrame[] = [];
  private events = 0;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly gatherMs: number,
    private readonly maxEvents: number,
    /** A run, in the order the frames came. */
    private readonly onRun: (frames: RelayedFrame[], events: number) => void,
  ) {}

  add(frame: RelayedFrame, events: number): void {
    if (this.frames.length > 0 && this.events + events > this.maxEvents) this.flush();
    this.frames.push(frame);
    this.events += events;
    if (this.events >= this.maxEvents) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), this.gatherMs);
  }

  /** Ends the run now (nothing when no frame waits). */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.frames.length === 0) return;
    const frames = this.frames;
    const events = this.events;
    this.frames = [];
    this.events = 0;
    this.onRun(frames, events);
  }
}
