// Day bars derived from minute bars, as SQL both engines run and the fold of its hourly rows:
// what MarketDataRepository.deriveDayBars writes for days that have no imported bar.
import type { BarRow } from '../../domain/market-records.js';
import { localDayOf, localDayStart, type Zone } from '../../domain/calendar.js';
import type { Row } from '../driver.js';
import { toNumber, toOptionalNumber } from '../driver.js';

/** A derived bar replaces only a derived one (re-deriving after corrected minutes), never an imported bar. */
export const DAY_BAR_DERIVED = ` ON CONFLICT (ticker, t) DO UPDATE SET o = excluded.o, h = excluded.h, l = excluded.l, c = excluded.c,
  v = excluded.v, vw = excluded.vw, n = excluded.n WHERE day_bars.derived = 1`;

// Day bars are folded from hourly partial sums computed by the engine: every ET and UTC
// midnight is a whole UTC hour, so no hour straddles two days, and the engine reads ~16 rows per
// day instead of ~960 minutes. The fold follows aggregateBars (domain/bars.ts): o first, c last,
// h max, l min, v and n summed when present, vw = Σ(vw·v)/Σv over minutes carrying vw with v > 0
// (exactly that vw when there is one). First/last prices are fetched by primary key.
const HOUR_MS = 3_600_000;
const VW_PART = 'vw IS NOT NULL AND v > 0';
export const HOURLY_PARTS_SQL = `
  SELECT g.ft AS t, f.o AS o, g.h AS h, g.l AS l, z.c AS c, g.v AS v, g.n AS n,
         g.vw_parts AS vw_parts, g.vw_one AS vw_one, g.vw_pv AS vw_pv, g.vw_v AS vw_v
  FROM (SELECT MIN(t) AS ft, MAX(t) AS lt, MAX(h) AS h, MIN(l) AS l, SUM(v) AS v, SUM(n) AS n,
               COUNT(CASE WHEN ${VW_PART} THEN 1 END) AS vw_parts,
               MAX(CASE WHEN ${VW_PART} THEN vw END) AS vw_one,
               SUM(CASE WHEN ${VW_PART} THEN vw * v END) AS vw_pv,
               SUM(CASE WHEN ${VW_PART} THEN v END) AS vw_v
        FROM minute_bars WHERE ticker = ? AND t >= ? AND t < ? GROUP BY t / ${HOUR_MS}) g
  JOIN minute_bars f ON f.ticker = ? AND f.t = g.ft
  JOIN minute_bars z ON z.ticker = ? AND z.t = g.lt
  ORDER BY g.ft`;

// PostgreSQL derives the day bars of an import's window in one statement instead of a query per
// ticker: for each ticker and local day (boundaries computed here, as foldHoursIntoDays has
// them), an aggregate over the day's minutes read by primary key, then the first and last
// minute's prices by primary key; the same fold, summed per day instead of per hour.
export const DERIVE_WINDOW_SQL = `
  INSERT INTO day_bars (ticker, t, o, h, l, c, v, vw, n, derived)
  SELECT u.ticker, d.ds, f.o, g.h, g.l, z.c, g.v,
         CASE WHEN g.vw_parts = 1 THEN g.vw_one WHEN g.vw_parts > 1 THEN g.vw_pv / g.vw_v END, g.n, 1
  FROM json_array_elements_text(CAST(? AS json)) u(ticker)
  CROSS JOIN unnest(CAST(string_to_array(?, ',') AS bigint[]), CAST(string_to_array(?, ',') AS bigint[])) d(ds, de)
  CROSS JOIN LATERAL (
    SELECT MIN(t) AS ft, MAX(t) AS lt, MAX(h) AS h, MIN(l) AS l, SUM(v) AS v, SUM(n) AS n,
           COUNT(CASE WHEN ${VW_PART} THEN 1 END) AS vw_parts,
           MAX(CASE WHEN ${VW_PART} THEN vw END) AS vw_one,
           SUM(CASE WHEN ${VW_PART} THEN vw * v END) AS vw_pv,
           SUM(CASE WHEN ${VW_PART} THEN v END) AS vw_v
    FROM minute_bars m WHERE m.ticker = u.ticker AND m.t >= d.ds AND m.t < d.de) g
  CROSS JOIN LATERAL (SELECT o FROM minute_bars WHERE ticker = u.ticker AND t = g.ft) f
  CROSS JOIN LATERAL (SELECT c FROM minute_bars WHERE ticker = u.ticker AND t = g.lt) z
  ${DAY_BAR_DERIVED}`;

/** Derived day bars written at once by deriveDayBars (bounded memory on a whole-store rebuild). */
export const DERIVED_PER_WRITE = 5000;

/** Day bars (local days of `zone`) from hourly partial rows in time order. */
export function foldHoursIntoDays(ticker: string, hours: readonly Row[], zone: Zone): BarRow[] {
  const out: BarRow[] = [];
  let day = NaN;
  let bar: BarRow | undefined;
  let vwParts = 0;
  let vwOne = 0;
  let vwPv = 0;
  let vwV = 0;
  const finish = () => {
    if (bar === undefined) return;
    bar.vw = vwParts === 1 ? vwOne : vwParts > 1 ? vwPv / vwV : undefined;
    out.push(bar);
  };
  for (const r of hours) {
    const t = toNumber(r.t);
    const v = toOptionalNumber(r.v);
    const n = toOptionalNumber(r.n);
    const d = localDayOf(t, zone);
    if (d !== day) {
      finish();
      day = d;
      bar = { ticker, t: localDayStart(d, zone), o: toNumber(r.o), h: toNumber(r.h), l: toNumber(r.l), c: toNumber(r.c), v, vw: undefined, n };
      vwParts = vwPv = vwV = 0;
    } else {
      const b = bar!;
      const h = toNumber(r.h);
      const l = toNumber(r.l);
      if (h > b.h) b.h = h;
      if (l < b.l) b.l = l;
      b.c = toNumber(r.c);
      if (v !== undefined) b.v = (b.v ?? 0) + v;
      if (n !== undefined) b.n = (b.n ?? 0) + n;
    }
    const parts = toNumber(r.vw_parts);
    if (parts > 0) {
      vwParts += parts;
      vwOne = toNumber(r.vw_one);
      vwPv += toNumber(r.vw_pv);
      vwV += toNumber(r.vw_v);
    }
  }
  finish();
  return out;
}
