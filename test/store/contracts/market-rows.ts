// Market-data rows with plausible defaults, for the market and snapshot-read contracts.
import type { BarRow, QuoteRow, TradeRow } from '../../../src/domain/market-records.js';

export function bar(ticker: string, t: number, o: number, extra: Partial<BarRow> = {}): BarRow {
  return { ticker, t, o, h: o + 1, l: o - 1, c: o + 0.5, v: 100, vw: undefined, n: 3, ...extra };
}

export function trade(ticker: string, ts: bigint, seq: bigint | undefined, extra: Partial<TradeRow> = {}): TradeRow {
  return {
    ticker, sip_timestamp: ts, participant_timestamp: ts - 1000n, trf_timestamp: undefined, price: 10, size: 100,
    exchange: 4, id: seq === undefined ? undefined : `id${seq}`, conditions: undefined, correction: undefined,
    sequence_number: seq, tape: 3, trf_id: undefined, ...extra,
  };
}

export function quote(ticker: string, ts: bigint, seq: bigint | undefined, extra: Partial<QuoteRow> = {}): QuoteRow {
  return {
    ticker, sip_timestamp: ts, participant_timestamp: ts - 500n, trf_timestamp: undefined, ask_price: 10.02, ask_size: 200,
    ask_exchange: 11, bid_price: 10.01, bid_size: 300, bid_exchange: 12, conditions: undefined, indicators: undefined,
    sequence_number: seq, tape: 3, ...extra,
  };
}
