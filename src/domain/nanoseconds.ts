// Nanosecond instants as the stores keep them: signed 64-bit integers, handled as bigint.

export const NS_PER_MS = 1_000_000n;
/** The largest value a 64-bit column holds (2262-04-11T23:47:16.854775807Z). */
export const MAX_STORED_NS = (1n << 63n) - 1n;

/**
 * Unix ms (plus extra ns) as ns held inside the stored range: a bound before 1678 or after 2261
 * lies past every row, so clamping it selects the same rows as the exact value would.
 */
export function msToStoredNs(ms: number, extraNs = 0n): bigint {
  const ns = BigInt(ms) * NS_PER_MS + extraNs;
  return ns > MAX_STORED_NS ? MAX_STORED_NS : ns < -MAX_STORED_NS ? -MAX_STORED_NS : ns;
}
