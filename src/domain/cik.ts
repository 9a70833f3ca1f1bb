/** `0000320193` from `320193`: CIKs compare as 10-digit text. */
export function normalizeCik(v: string): string {
  return /^\d{1,10}$/.test(v) ? v.padStart(10, '0') : v;
}
