// Facts about the real filers of the fundamentals demo: fiscal-year ends, which of them pay
// regular quarterly dividends (the amounts are synthetic) and since when, and the SIC codes
// that shape a technology company's or a bank's statements.

/** Fiscal-year end month (1–12) of filers that do not close in December. */
export const FISCAL_YEAR_END: Record<string, number> = {
  AAPL: 9, MSFT: 6, NVDA: 1, WMT: 1, COST: 8, ORCL: 5, CSCO: 7, ADBE: 11, NKE: 5, SBUX: 9, QCOM: 9, CRM: 1, A: 10, DIS: 9, V: 9, AVGO: 10, MCD: 12,
};

/** Real payers of regular quarterly dividends (the demo amounts are synthetic). */
export const DIVIDEND_PAYERS = new Set([
  'A', 'AA', 'AAPL', 'ABBV', 'AVGO', 'BAC', 'C', 'CAT', 'COST', 'CRM', 'CSCO', 'CVX', 'DIS', 'F', 'GM', 'GOOGL', 'GOOG', 'GS', 'HD',
  'IBM', 'INTC', 'JNJ', 'JPM', 'KO', 'LLY', 'MA', 'MCD', 'META', 'MRK', 'MS', 'MSFT', 'NKE', 'NVDA', 'ORCL', 'PEP', 'PFE', 'PG',
  'QCOM', 'SBUX', 'T', 'TXN', 'UNH', 'V', 'VZ', 'WFC', 'WMT', 'XOM',
]);

/** Payers that started paying within the demo range: no dividends before this date. */
export const DIVIDENDS_SINCE: Record<string, string> = { GOOGL: '2024-06-01', GOOG: '2024-06-01', META: '2024-02-01', CRM: '2024-03-01', DIS: '2024-01-01' };

export const TECH_SIC = new Set(['3570', '3571', '3576', '3663', '3674', '7370', '7372', '7389']);
export const BANK_SIC = new Set(['6021', '6022', '6211']);
