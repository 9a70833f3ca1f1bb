// Long computations on the event loop cut into slices. The loop also delivers the feed's events:
// while one request builds a 50,000-row answer in one go (parsing a list the store read, joining
// an answer's pieces, compressing it), every subscriber waits that long for its next event. Code
// that walks many rows asks a slice clock whether its slice has run long enough and, when it has,
// lets the loop go (setImmediate: I/O callbacks, the feed's sends and timers run first) before
// going on.

/** How long a slice may hold the event loop (ms): a few ms, well inside the feed's 50 ms p99. */
export const SLICE_MS = 2;

/** Resolves once the event loop has run what was waiting (I/O, timers) at the time of the call. */
export function yieldToLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** The clock of one computation cut into slices. */
export class LoopSlices {
  private started = performance.now();

  constructor(private readonly sliceMs = SLICE_MS) {}

  /** Whether the current slice has held the loop for its time. */
  get due(): boolean {
    return performance.now() - this.started >= this.sliceMs;
  }

  /** Lets the loop go when the current slice is due (then starts the next slice); else resolves at once. */
  async pass(): Promise<void> {
    if (!this.due) return;
    await yieldToLoop();
    this.started = performance.now();
  }
}

/**
 * Calls `step(i)` for i in [0, n), `every` at a time, letting the loop go between them whenever a
 * slice is due. `every` should be a few hundred µs of work, so that the clock is read rarely.
 */
export async function slicedLoop(n: number, every: number, step: (i: number) => void, slices = new LoopSlices()): Promise<void> {
  for (let from = 0; from < n; from += every) {
    const to = Math.min(n, from + every);
    for (let i = from; i < to; i++) step(i);
    if (to < n) await slices.pass();
  }
}
