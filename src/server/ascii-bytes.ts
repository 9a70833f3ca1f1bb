// Writing JSON text of numbers and plain strings into a buffer a byte at a time, for the access
// line (logger.ts): its few fields are written straight into the log's batch buffer, with no
// string built, joined and encoded per request.

/**
 * Writes `s` at `at` if JSON needs no escape for any of its characters (printable ASCII other
 * than `"` and `\`) and returns the end; otherwise returns -1 (what was written is to be ignored).
 */
export function putPlainAscii(buf: Uint8Array, at: number, s: string): number {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c) return -1;
    buf[at++] = c;
  }
  return at;
}

/** Writes the decimal digits of `n` (an integer from 0 to 2^53) at `at`; returns the end. */
export function putUint(buf: Uint8Array, at: number, n: number): number {
  let digits = 1;
  for (let m = n; m >= 10; m = Math.floor(m / 10)) digits++;
  const end = at + digits;
  let i = end;
  let m = n;
  do {
    const next = Math.floor(m / 10);
    buf[--i] = 0x30 + (m - next * 10);
    m = next;
  } while (m > 0);
  return end;
}

/** Largest count of hundredths putHundredths writes (its text is then JavaScript's own for n / 100). */
export const MAX_HUNDREDTHS = 1e12;

/**
 * Writes `n / 100` (n an integer from 0 to MAX_HUNDREDTHS) as JavaScript prints that number: the
 * whole part, then up to two decimals without trailing zeros. Returns the end.
 */
export function putHundredths(buf: Uint8Array, at: number, n: number): number {
  const whole = Math.floor(n / 100);
  const cents = n - whole * 100;
  at = putUint(buf, at, whole);
  if (cents === 0) return at;
  buf[at++] = 0x2e; // .
  const tens = Math.floor(cents / 10);
  buf[at++] = 0x30 + tens;
  const ones = cents - tens * 10;
  if (ones !== 0) buf[at++] = 0x30 + ones;
  return at;
}
