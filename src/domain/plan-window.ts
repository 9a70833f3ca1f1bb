// A plan's window over time-series data (history from `earliestMs`, nothing after `latestMs`) and
// the narrowing of a read's time range to it, for reads that bound themselves by the window.
import { NS_PER_MS } from './nanoseconds.js';

/** The instants a plan may see, in Unix ms (±Infinity when unbounded). */
export interface PlanWindowLimits {
  earliestMs: number;
  latestMs: number;
  /** The window ends behind the clock (a delayed or end-of-day plan), not at now. */
  delayed: boolean;
}

/**
 * [gte, lt) in ns (undefined: open) narrowed to the window, and whether the window narrowed it:
 * `history` when the range reached before the window, `delay` when it reached past a delayed
 * window's end. A real-time window ends now: the time after it holds nothing yet, so bounding
 * the read there cuts nothing the plan could see later, and the body must not call it delayed.
 */
export function narrowNsRange(
  gte: bigint | undefined,
  lt: bigint | undefined,
  w: PlanWindowLimits,
): { gte?: bigint; lt?: bigint; cut: { history: boolean; delay: boolean } } {
  const earliest = Number.isFinite(w.earliestMs) ? BigInt(w.earliestMs) * NS_PER_MS : undefined;
  const latestEnd = Number.isFinite(w.latestMs) ? (BigInt(w.latestMs) + 1n) * NS_PER_MS : undefined;
  const history = earliest !== undefined && (gte === undefined || gte < earliest);
  const late = latestEnd !== undefined && (lt === undefined || lt > latestEnd);
  return { gte: history ? earliest : gte, lt: late ? latestEnd : lt, cut: { history, delay: late && w.delayed } };
}
