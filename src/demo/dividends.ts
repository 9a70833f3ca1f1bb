// Quarterly dividend schedules of the demo's dividend payers.

import { nextTradingDay } from '../domain/calendar.js';
import type { DatasetRecord } from '../store/repos/datasets.js';
import { splitMultiple } from './filer-prices.js';
import type { Profile } from './filers.js';
import { addDays } from './civil-days.js';
import { onOrAfterTradingDay, onOrBeforeTradingDay, round, yearsBetween } from './fundamental-dates.js';
import type { DemoSplit } from './facts/market.js';

export interface DemoDividend {
  record: DatasetRecord;
  /** Cash per current-basis share. */
  currentBasis: number;
}

/** Quarterly dividends (ex-dates every three months) from `from` to shortly after `asOf`. */
export function dividendSchedule(ticker: string, p: Profile, annualToday: number, from: string, asOf: string, splits: readonly DemoSplit[]): DemoDividend[] {
  const out: DemoDividend[] = [];
  const startMonth = (p.exDayOfMonth % 3) + 1; // Feb/May/Aug/Nov style offsets per company
  const firstYear = Number(from.slice(0, 4));
  const lastYear = Number(asOf.slice(0, 4));
  for (let y = firstYear; y <= lastYear; y++) {
    for (let m = startMonth; m <= 12; m += 3) {
      const ex = onOrAfterTradingDay(`${y}-${String(m).padStart(2, '0')}-${String(p.exDayOfMonth).padStart(2, '0')}`);
      const declared = onOrBeforeTradingDay(addDays(ex, -28));
      if (ex < from || declared > asOf) continue;
      // Raised once a year, in the first quarter.
      const currentBasis = round((annualToday / 4) * Math.pow(1 + p.dividendRaise, -Math.floor(yearsBetween(`${y}-01-01`, `${lastYear}-01-01`))), 4);
      // T+1 settlement from 2024-05-28: record date = ex-date; before, the next session.
      const record = ex >= '2024-05-28' ? ex : nextTradingDay(ex);
      const cash = round(currentBasis * splitMultiple(splits, ticker, ex), 4);
      out.push({
        currentBasis,
        record: {
          ticker, cash_amount: cash, currency: 'USD', declaration_date: declared, ex_dividend_date: ex, record_date: record,
          pay_date: onOrAfterTradingDay(addDays(ex, 14 + (p.exDayOfMonth % 10))), frequency: 4, distribution_type: 'recurring',
        },
      });
    }
  }
  return out;
}
