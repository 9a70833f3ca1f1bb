// Ticker versions of the real instruments: real stocks, ADRs and ETFs (with their known history),
// real indices, every cross of the listed fiat currencies and the crypto pairs.

import type { TickerRecord } from '../store/records.js';
import { CRYPTO, CRYPTO_NAME, FIAT, FIAT_NAME, FX_START, REAL_INDICES, STABLECOINS } from './facts/indices-currencies.js';
import { EMPLOYEES, REAL_STOCKS } from './facts/real-stocks.js';
import { SIC } from './facts/sic.js';
import type { Draft } from './ticker-drafts.js';

/** valid_from used for real tickers whose listing date we do not know: "before demo history". */
const SINCE_EARLY = '1970-01-02';

export function realStockDrafts(): Draft[] {
  const out: Draft[] = [];
  for (const s of REAL_STOCKS) {
    const rec: TickerRecord = {
      ticker: s.t,
      name: s.name,
      market: 'stocks',
      locale: 'us',
      primary_exchange: s.ex,
      type: s.type,
      active: true,
      currency_name: 'usd',
      last_updated_utc: '',
      valid_from: s.since ?? s.list ?? SINCE_EARLY,
    };
    if (s.cik) rec.cik = s.cik;
    if (s.figi) rec.composite_figi = s.figi;
    if (s.scfigi) rec.share_class_figi = s.scfigi;
    rec.description = s.desc;
    if (s.url) rec.homepage_url = s.url;
    if (s.phone) rec.phone_number = s.phone;
    if (s.addr) rec.address = { address1: s.addr[0], city: s.addr[1], state: s.addr[2], postal_code: s.addr[3] };
    if (s.list) rec.list_date = s.list;
    if (s.so !== undefined) rec.share_class_shares_outstanding = Math.round(s.so);
    if (s.wso !== undefined) rec.weighted_shares_outstanding = Math.round(s.wso);
    rec.round_lot = 100;
    if (EMPLOYEES[s.t] !== undefined) rec.total_employees = EMPLOYEES[s.t];
    if (s.sic) {
      rec.sic_code = s.sic;
      rec.sic_description = SIC[s.sic] as string;
    }
    const dot = s.t.indexOf('.');
    rec.ticker_root = dot === -1 ? s.t : s.t.slice(0, dot);
    if (dot !== -1) rec.ticker_suffix = s.t.slice(dot + 1);

    if (s.history && s.history.length > 0) {
      let from = rec.valid_from;
      for (const h of s.history) {
        const v: TickerRecord = { ...rec, valid_from: from, valid_to: h.until };
        if (v.address) v.address = { ...v.address };
        if (h.name) v.name = h.name;
        if (h.ex) v.primary_exchange = h.ex;
        out.push({ rec: v });
        from = h.until;
      }
      rec.valid_from = from;
    }
    out.push({ rec });
  }
  for (const ix of REAL_INDICES) {
    out.push({
      rec: {
        ticker: ix.t,
        name: ix.name,
        market: 'indices',
        locale: 'us',
        active: true,
        source_feed: ix.feed,
        last_updated_utc: '',
        valid_from: ix.since,
      },
    });
  }
  return out;
}

function fxDraft(base: string, quote: string, baseName: string, quoteName: string, since: string): Draft {
  return {
    rec: {
      ticker: `C:${base}${quote}`,
      name: `${baseName} - ${quoteName}`,
      market: 'fx',
      locale: 'global',
      active: true,
      currency_symbol: quote,
      currency_name: quoteName,
      base_currency_symbol: base,
      base_currency_name: baseName,
      last_updated_utc: '',
      valid_from: since,
    },
  };
}

export function fxDrafts(): Draft[] {
  const out: Draft[] = [];
  for (const [b, bn] of FIAT) {
    for (const [q, qn] of FIAT) {
      if (b === q) continue;
      out.push(fxDraft(b, q, bn, qn, b === 'EUR' || q === 'EUR' ? '1999-01-04' : FX_START));
    }
  }
  // Croatian kuna: replaced by the euro on 2023-01-01 -> inactive pairs (point-in-time demo).
  for (const [b, q] of [['HRK', 'USD'], ['USD', 'HRK'], ['HRK', 'EUR'], ['EUR', 'HRK']] as const) {
    const name = (c: string): string => (c === 'HRK' ? 'Croatian Kuna' : (FIAT_NAME.get(c) as string));
    out.push({ ...fxDraft(b, q, name(b), name(q), FX_START), delisted: '2023-01-01' });
  }
  return out;
}

export function cryptoDrafts(): Draft[] {
  const out: Draft[] = [];
  const top = CRYPTO.slice(0, 16).map(([c]) => c);
  const quoteName = (q: string): string => FIAT_NAME.get(q) ?? (CRYPTO_NAME.get(q) as string);
  for (const [base, baseName, since] of CRYPTO) {
    const quotes = ['USD', 'EUR', 'GBP'];
    if (top.slice(0, 10).includes(base) && !STABLECOINS.has(base)) quotes.push('USDT');
    if (top.includes(base) && base !== 'BTC' && !STABLECOINS.has(base)) quotes.push('BTC');
    for (const q of quotes) {
      if (q === base) continue;
      const quoteSince = q === 'USDT' ? '2015-02-25' : '2013-01-02';
      const from = since > quoteSince ? since : quoteSince;
      out.push({
        rec: {
          ticker: `X:${base}${q}`,
          name: `${baseName} - ${quoteName(q)}`,
          market: 'crypto',
          locale: 'global',
          active: true,
          currency_symbol: q,
          currency_name: quoteName(q),
          base_currency_symbol: base,
          base_currency_name: baseName,
          last_updated_utc: '',
          valid_from: from,
        },
      });
    }
  }
  return out;
}
