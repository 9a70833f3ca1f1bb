/**
 * OCC option symbols as upstream writes them: `O:` + root + YYMMDD + C|P + strike×1000
 * in 8 digits, e.g. `O:SPY251219C00650000` = SPY call, 2025-12-19, strike 650.
 * Years are 20YY. The root is what the symbol holds; for some index weeklies it
 * differs from the underlying (SPXW options are on SPX).
 */

export type ContractType = 'call' | 'put';

export interface OptionSymbol {
  underlying: string;
  /** `YYYY-MM-DD` */
  expiration_date: string;
  contract_type: ContractType;
  strike_price: number;
}

const OPTION_TICKER = /^O:([A-Z0-9.]{1,6})(\d{2})(\d{2})(\d{2})([CP])(\d{8})$/;
const ROOT = /^[A-Z0-9.]{1,6}$/;
const ISO_DATE = /^20(\d{2})-(\d{2})-(\d{2})$/;
const MAX_STRIKE_THOUSANDTHS = 99_999_999;

/** Parses an `O:` option ticker; null when it is not one or names an impossible date. */
export function parseOptionTicker(ticker: string): OptionSymbol | null {
  const m = OPTION_TICKER.exec(ticker);
  if (!m) return null;
  const [, underlying, yy, mm, dd, cp, strike] = m as unknown as [string, string, string, string, string, string, string];
  const expiration_date = `20${yy}-${mm}-${dd}`;
  if (!isCalendarDate(expiration_date)) return null;
  return {
    underlying,
    expiration_date,
    contract_type: cp === 'C' ? 'call' : 'put',
    strike_price: Number(strike) / 1000,
  };
}

/** Inverse of parseOptionTicker. Throws RangeError for a contract no OCC symbol can name. */
export function formatOptionTicker(option: OptionSymbol): string {
  const { underlying, expiration_date, contract_type, strike_price } = option;
  if (!ROOT.test(underlying)) throw new RangeError(`invalid option root: ${underlying}`);
  const date = ISO_DATE.exec(expiration_date);
  if (!date || !isCalendarDate(expiration_date)) {
    throw new RangeError(`expiration_date must be a YYYY-MM-DD date in 2000–2099: ${expiration_date}`);
  }
  const thousandths = Math.round(strike_price * 1000);
  // Allow float noise (650.1 * 1000 = 650100.0000000001) but not sub-tenth-of-a-cent strikes.
  if (!(thousandths >= 0 && thousandths <= MAX_STRIKE_THOUSANDTHS) || Math.abs(thousandths - strike_price * 1000) > 1e-6) {
    throw new RangeError(`strike_price not representable in an OCC symbol: ${strike_price}`);
  }
  const [, yy, mm, dd] = date;
  const cp = contract_type === 'call' ? 'C' : 'P';
  return `O:${underlying}${yy}${mm}${dd}${cp}${String(thousandths).padStart(8, '0')}`;
}

function isCalendarDate(iso: string): boolean {
  const [y, m, d] = iso.split('-').map(Number) as [number, number, number];
  const ms = Date.UTC(y, m - 1, d);
  return new Date(ms).toISOString().slice(0, 10) === iso;
}
