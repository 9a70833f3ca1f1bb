// Numbers as people read them on a dashboard: thousands separators, units, and a fixed locale
// (en-US) so a page reads the same in every browser.

const LOCALE = 'en-US';

/** A count with thousands separators: 1234567 → "1,234,567". */
export function count(n: number): string {
  return n.toLocaleString(LOCALE, { maximumFractionDigits: 0 });
}

/** A price: two decimals with separators, more for prices under a dollar (0.000123). */
export function price(n: number): string {
  const abs = Math.abs(n);
  const digits = abs === 0 || abs >= 1 ? 2 : Math.min(8, 2 - Math.floor(Math.log10(abs)) + 1);
  return n.toLocaleString(LOCALE, { minimumFractionDigits: 2, maximumFractionDigits: digits });
}

/** A large quantity with a unit: 1234 → "1.23K", 5600000 → "5.6M"; below 1,000 as a count. */
export function compact(n: number): string {
  const abs = Math.abs(n);
  for (const [unit, size] of [['T', 1e12], ['B', 1e9], ['M', 1e6], ['K', 1e3]] as const) {
    if (abs >= size) return `${(n / size).toLocaleString(LOCALE, { maximumFractionDigits: 2 })}${unit}`;
  }
  return count(n);
}

/** Money in US dollars with a unit: "$2.91T", "$512.3M". */
export function dollars(n: number | undefined): string {
  return n === undefined ? '—' : `$${compact(n)}`;
}

/** Bytes with a unit: "12.4 MB". */
export function bytes(n: number): string {
  const units = ['bytes', 'KB', 'MB', 'GB', 'TB'];
  let v = n;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return i === 0 ? `${count(v)} bytes` : `${v.toLocaleString(LOCALE, { maximumFractionDigits: 1 })} ${units[i]}`;
}

/** A signed change with its percentage: "+1.25 (+0.68%)". */
export function change(now: number, before: number): string {
  const d = now - before;
  const sign = d >= 0 ? '+' : '−';
  return `${sign}${price(Math.abs(d))} (${sign}${(Math.abs(d / before) * 100).toFixed(2)}%)`;
}

