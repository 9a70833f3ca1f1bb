// The synthetic Fed series: daily treasury yields along a curve between a short and a ten-year
// rate, and monthly inflation and inflation expectations.

import { dayOfDate, tradingDaysBetween } from '../domain/calendar.js';
import type { DatasetRecord } from '../store/repos/datasets.js';
import { INFLATION_RATE, SHORT_RATE, TENORS, TEN_YEAR } from './facts/economy.js';
import { addDays } from './civil-days.js';
import { lastDayOfMonth, round } from './fundamental-dates.js';
import type { Rng } from './random.js';

/** [date, value] anchors, linearly interpolated. */
function interpolate(anchors: readonly (readonly [string, number])[], date: string): number {
  const d = dayOfDate(date);
  if (d <= dayOfDate(anchors[0]![0])) return anchors[0]![1];
  for (let i = 1; i < anchors.length; i++) {
    const [bd, bv] = anchors[i]!;
    const b = dayOfDate(bd);
    if (d <= b) {
      const [ad, av] = anchors[i - 1]!;
      const a = dayOfDate(ad);
      return av + ((bv - av) * (d - a)) / (b - a);
    }
  }
  return anchors[anchors.length - 1]![1];
}

export function treasuryYieldRows(from: string, asOf: string, rng: Rng): DatasetRecord[] {
  const out: DatasetRecord[] = [];
  let shortNoise = 0;
  let longNoise = 0;
  for (const date of tradingDaysBetween(from, asOf)) {
    shortNoise = shortNoise * 0.9 + rng.normal(0, 0.02);
    longNoise = longNoise * 0.95 + rng.normal(0, 0.03);
    const short = Math.max(0.01, interpolate(SHORT_RATE, date) + shortNoise);
    const ten = Math.max(0.3, interpolate(TEN_YEAR, date) + longNoise);
    const tau = 2.5;
    const row: DatasetRecord = { date };
    for (const [name, t] of TENORS) {
      let y: number;
      if (t <= 10) y = short + ((ten - short) * (1 - Math.exp(-t / tau))) / (1 - Math.exp(-10 / tau));
      else y = ten + (t === 20 ? 0.3 : 0.2);
      row[name] = round(Math.max(0.01, y), 2);
    }
    out.push(row);
  }
  return out;
}

export function inflationRows(from: string, asOf: string, rng: Rng): { inflation: DatasetRecord[]; expectations: DatasetRecord[] } {
  const inflation: DatasetRecord[] = [];
  const expectations: DatasetRecord[] = [];
  // Twelve months of warm-up so the first year-over-year figure has its base.
  const startYear = Number(from.slice(0, 4)) - 1;
  const startMonth = Number(from.slice(5, 7)) - 1;
  let cpi = 270;
  let core = 276;
  let pce = 114;
  let pceCore = 113.5;
  let spending = 15600;
  const history: number[] = [];
  for (let i = 0; ; i++) {
    const y = startYear + Math.floor((startMonth + i) / 12);
    const m = ((startMonth + i) % 12) + 1;
    const date = `${y}-${String(m).padStart(2, '0')}-01`;
    // A month's figures are published mid-month after it.
    if (addDays(lastDayOfMonth(y, m), 15) > asOf) break;
    const annual = interpolate(INFLATION_RATE, date) / 100;
    const monthly = Math.pow(1 + annual, 1 / 12) - 1;
    cpi *= 1 + monthly + rng.normal(0, 0.0008);
    core *= 1 + monthly * 0.85 + 0.0004 + rng.normal(0, 0.0006);
    pce *= 1 + monthly * 0.8 + rng.normal(0, 0.001);
    pceCore *= 1 + monthly * 0.75 + 0.0003 + rng.normal(0, 0.0005);
    spending *= 1 + 0.004 + rng.normal(0, 0.002);
    history.push(cpi);
    if (date < from.slice(0, 7) + '-01') continue;
    const yearAgo = history[history.length - 13];
    inflation.push({
      date, cpi: round(cpi, 3), cpi_core: round(core, 3),
      ...(yearAgo ? { cpi_year_over_year: round((cpi / yearAgo - 1) * 100, 2) } : {}),
      pce: round(pce, 3), pce_core: round(pceCore, 3), pce_spending: round(spending, 1),
    });
    const current = annual * 100;
    expectations.push({
      date,
      market_5_year: round(2.1 + (current - 2) * 0.12 + rng.normal(0, 0.05), 2),
      market_10_year: round(2.15 + (current - 2) * 0.07 + rng.normal(0, 0.04), 2),
      forward_years_5_to_10: round(2.2 + (current - 2) * 0.03 + rng.normal(0, 0.04), 2),
      model_1_year: round(1.8 + (current - 2) * 0.45 + rng.normal(0, 0.08), 2),
      model_5_year: round(2.0 + (current - 2) * 0.12 + rng.normal(0, 0.04), 2),
      model_10_year: round(2.1 + (current - 2) * 0.07 + rng.normal(0, 0.03), 2),
      model_30_year: round(2.25 + (current - 2) * 0.03 + rng.normal(0, 0.02), 2),
    });
  }
  return { inflation, expectations };
}
