// The explorer draws intraday bars in the time of the market they trade in: US stocks, options
// and indices in New York time (the session shows as 09:30-16:00, as on every US broker's
// chart), forex and crypto, which trade around the clock, in UTC. lightweight-charts draws the
// timestamps it is given as UTC, so bars are shifted by the zone's offset at their own instant
// (which follows daylight saving time).

export type ChartZone = 'exchange' | 'utc';

/** The time zone a ticker's intraday bars are read in, from its prefix (X: crypto, C: forex). */
export function exchangeZone(ticker: string): string {
  return /^[XC]:/.test(ticker) ? 'UTC' : 'America/New_York';
}

const formats = new Map<string, Intl.DateTimeFormat>();

/** The zone's offset from UTC at an instant, in ms (New York: −5 h in winter, −4 h in summer). */
export function zoneOffsetMs(zone: string, utcMs: number): number {
  if (zone === 'UTC') return 0;
  let f = formats.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' });
    formats.set(zone, f);
  }
  const p = Object.fromEntries(f.formatToParts(new Date(utcMs)).map((x) => [x.type, x.value]));
  const asUtc = Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second));
  return asUtc - Math.floor(utcMs / 1000) * 1000;
}

/** The chart time (seconds) of a bar: its instant shifted into the zone's wall-clock time. */
export function chartSeconds(utcMs: number, zone: string): number {
  return Math.floor((utcMs + zoneOffsetMs(zone, utcMs)) / 1000);
}

/** A short name of the zone for the toggle and the readout. */
export function zoneLabel(zone: string): string {
  return zone === 'America/New_York' ? 'New York' : zone;
}
