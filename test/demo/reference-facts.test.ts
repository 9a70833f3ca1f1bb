import { describe, expect, it } from 'vitest';
import { CONDITIONS, EXCHANGES, TICKER_TYPES } from '../../src/demo/facts/reference.js';
import type { ConditionRecord, ExchangeRecord } from '../../src/store/records.js';
import { UPSTREAM_DIR, skipConformance } from '../helpers/conformance.js';

function noEmptyValues(obj: object, path = ''): string[] {
  const bad: string[] = [];
  for (const [k, v] of Object.entries(obj)) {
    const p = `${path}.${k}`;
    if (v === null || v === undefined || v === '') bad.push(p);
    else if (Array.isArray(v)) {
      if (v.length === 0) bad.push(p);
    } else if (typeof v === 'object') bad.push(...noEmptyValues(v as object, p));
  }
  return bad;
}

describe('TICKER_TYPES', () => {
  it('has the 25 ticker-type codes in upstream order, IX last as indices', () => {
    expect(TICKER_TYPES.map((t) => t.code)).toEqual([
      'CS', 'PFD', 'WARRANT', 'RIGHT', 'BOND', 'ETF', 'ETN', 'ETV', 'SP', 'ADRC', 'ADRP', 'ADRW', 'ADRR',
      'FUND', 'BASKET', 'UNIT', 'LT', 'OS', 'GDR', 'OTHER', 'NYRS', 'AGEN', 'EQLK', 'ETS', 'IX',
    ]);
    expect(TICKER_TYPES.slice(0, 24).every((t) => t.asset_class === 'stocks' && t.locale === 'us')).toBe(true);
    expect(TICKER_TYPES[24]).toEqual({ code: 'IX', description: 'Index', asset_class: 'indices', locale: 'us' });
  });

  it('agrees with the recorded upstream ticker types body', async () => {
    const fs = await import('node:fs');
    const path = `${UPSTREAM_DIR}/v3/reference/tickers/types.json`;
    if (!fs.existsSync(path)) return skipConformance(path);
    const body = JSON.parse(fs.readFileSync(path, 'utf8')) as { results: typeof TICKER_TYPES };
    for (const up of body.results) expect(TICKER_TYPES.find((t) => t.code === up.code)).toEqual(up);
  });

  it('uses upstream descriptions (spot checks) and exactly four keys per row', () => {
    const byCode = new Map(TICKER_TYPES.map((t) => [t.code, t.description]));
    expect(byCode.get('CS')).toBe('Common Stock');
    expect(byCode.get('ADRC')).toBe('American Depository Receipt Common');
    expect(byCode.get('ETS')).toBe('Single-security ETF');
    expect(byCode.get('OTHER')).toBe('Other Security Type');
    for (const t of TICKER_TYPES) expect(Object.keys(t).sort()).toEqual(['asset_class', 'code', 'description', 'locale']);
  });
});

describe('EXCHANGES', () => {
  const stocks = EXCHANGES.filter((e) => e.asset_class === 'stocks');
  const options = EXCHANGES.filter((e) => e.asset_class === 'options');
  const crypto = EXCHANGES.filter((e) => e.asset_class === 'crypto');
  const fx = EXCHANGES.filter((e) => e.asset_class === 'fx');

  it('has 27 stock rows, 17 options rows, 4 crypto rows and the fx aggregate', () => {
    expect(stocks).toHaveLength(27);
    expect(options).toHaveLength(17);
    expect(crypto.map((e) => [e.id, e.name])).toEqual([[1, 'Coinbase'], [2, 'Bitfinex'], [6, 'Bitstamp'], [23, 'Kraken']]);
    expect(fx).toEqual([{ id: 48, type: 'exchange', asset_class: 'fx', locale: 'global', name: 'Currency Banks Aggregate' }]);
  });

  it('ids are unique within each asset class', () => {
    for (const cls of ['stocks', 'options', 'crypto', 'fx'] as const) {
      const ids = EXCHANGES.filter((e) => e.asset_class === cls).map((e) => e.id);
      expect(new Set(ids).size).toBe(ids.length);
    }
  });

  it('stock exchange rows match upstream (spot checks, omitted empty cells)', () => {
    const byId = new Map(stocks.map((e) => [e.id, e]));
    expect(byId.get(1)).toEqual({
      id: 1, type: 'exchange', asset_class: 'stocks', locale: 'us', name: 'NYSE American, LLC', acronym: 'AMEX',
      mic: 'XASE', operating_mic: 'XNYS', participant_id: 'A', url: 'https://www.nyse.com/markets/nyse-american',
    });
    // SIP rows have no mic; ORF/FINRA facility rows have no participant id.
    expect(byId.get(5)).toEqual({
      id: 5, type: 'SIP', asset_class: 'stocks', locale: 'us', name: 'Unlisted Trading Privileges',
      operating_mic: 'XNAS', participant_id: 'E', url: 'https://www.utpplan.com',
    });
    expect(byId.get(62)).toMatchObject({ type: 'ORF', mic: 'OOTC', operating_mic: 'FINR' });
    expect(byId.get(62)).not.toHaveProperty('participant_id');
    expect(byId.get(12)).toMatchObject({ name: 'Nasdaq', mic: 'XNAS', participant_id: 'T' });
    expect(byId.get(19)).toMatchObject({ name: 'Cboe BZX', mic: 'BATS', participant_id: 'Z' });
    expect([...byId.keys()]).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 62, 201, 202, 203]);
    const types = new Set(stocks.map((e) => e.type));
    expect([...types].sort()).toEqual(['ORF', 'SIP', 'TRF', 'exchange']);
    for (const e of stocks) {
      expect(e.locale).toBe('us');
      expect(e.operating_mic).toMatch(/^[A-Z0-9]{4}$/);
      expect(e.url).toMatch(/^https:\/\//);
      if (e.participant_id !== undefined) expect(e.participant_id).toMatch(/^[A-Z]$/);
      if (e.mic !== undefined) expect(e.mic).toMatch(/^[A-Z0-9]{4}$/);
    }
  });

  it('options rows: type exchange except OPRA (SIP), single-letter participants', () => {
    for (const e of options) {
      expect(e.locale).toBe('us');
      expect(e.type).toBe(e.mic === 'OPRA' ? 'SIP' : 'exchange');
      expect(e.participant_id).toMatch(/^[A-Z]$/);
      expect(e.id).toBeGreaterThanOrEqual(300);
    }
    const opra = options.find((e) => e.id === 314) as ExchangeRecord;
    expect(opra).toEqual({
      id: 314, type: 'SIP', asset_class: 'options', locale: 'us', name: 'Options Price Reporting Authority',
      mic: 'OPRA', participant_id: 'O',
    });
  });

  it('agrees with the recorded upstream exchanges body', async () => {
    const fs = await import('node:fs');
    const path = `${UPSTREAM_DIR}/v3/reference/exchanges.json`;
    if (!fs.existsSync(path)) return skipConformance(path);
    const body = JSON.parse(fs.readFileSync(path, 'utf8')) as { results: ExchangeRecord[] };
    for (const up of body.results) {
      expect(EXCHANGES.find((e) => e.asset_class === up.asset_class && e.id === up.id)).toEqual(up);
    }
  });

  it('crypto and fx venues are global; no field is null or empty', () => {
    for (const e of [...crypto, ...fx]) expect(e.locale).toBe('global');
    for (const e of EXCHANGES) expect(noEmptyValues(e)).toEqual([]);
  });
});

describe('CONDITIONS', () => {
  const rules = (c: ConditionRecord): string =>
    c.update_rules
      ? (['consolidated', 'market_center'] as const)
          .map((k) => {
            const r = c.update_rules![k];
            return [r.updates_high_low, r.updates_open_close, r.updates_volume].map((b) => (b ? 'T' : 'F')).join('');
          })
          .join('/')
      : '-';

  it('every row has the required shape', () => {
    for (const c of CONDITIONS) {
      expect(Number.isInteger(c.id)).toBe(true);
      expect(typeof c.type).toBe('string');
      expect(c.name.length).toBeGreaterThan(0);
      expect(['stocks', 'options', 'crypto']).toContain(c.asset_class);
      expect(c.data_types.length).toBeGreaterThan(0);
      for (const d of c.data_types) expect(['trade', 'bbo', 'nbbo']).toContain(d);
      if (c.sip_mapping) {
        for (const [k, v] of Object.entries(c.sip_mapping)) {
          expect(['CTA', 'UTP', 'OPRA']).toContain(k);
          expect(v).toHaveLength(1);
        }
      }
      if (c.update_rules) {
        for (const k of ['consolidated', 'market_center'] as const) {
          expect(Object.keys(c.update_rules[k]).sort()).toEqual(['updates_high_low', 'updates_open_close', 'updates_volume']);
        }
      }
      if ('legacy' in c) expect(c.legacy).toBe(true);
      expect(noEmptyValues(c)).toEqual([]);
    }
  });

  it('(asset_class, id, data type family) is unique', () => {
    const keys = CONDITIONS.map((c) => `${c.asset_class}|${c.id}|${c.data_types.includes('trade') ? 'trade' : 'quote'}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('stock trade conditions match the client mock rows exactly', () => {
    const trade = new Map(CONDITIONS.filter((c) => c.asset_class === 'stocks' && c.data_types.includes('trade')).map((c) => [c.id, c]));
    expect(trade.get(1)).toEqual({
      id: 1, type: 'sale_condition', name: 'Acquisition', asset_class: 'stocks', sip_mapping: { UTP: 'A' },
      data_types: ['trade'],
      update_rules: {
        consolidated: { updates_high_low: true, updates_open_close: true, updates_volume: true },
        market_center: { updates_high_low: true, updates_open_close: true, updates_volume: true },
      },
    });
    expect(trade.get(2)?.sip_mapping).toEqual({ CTA: 'B', UTP: 'W' });
    expect(rules(trade.get(2)!)).toBe('FFT/FFT');
    expect(rules(trade.get(5)!)).toBe('TFT/TFT');
    expect(trade.get(6)?.legacy).toBe(true);
    expect(rules(trade.get(10)!)).toBe('TFT/TFT');
    expect(rules(trade.get(15)!)).toBe('FFF/TTF');
    expect(rules(trade.get(38)!)).toBe('TTF/FFF');
    expect(trade.get(41)?.type).toBe('trade_thru_exempt');
    expect(trade.get(24)).not.toHaveProperty('sip_mapping');
    expect(trade.get(60)).toMatchObject({ type: 'short_sale_restriction_indicator' });
    expect(trade.get(60)).not.toHaveProperty('update_rules');
    const fin = [...trade.values()].filter((c) => c.type === 'financial_status_indicator').map((c) => c.id);
    expect(fin).toEqual([62, 63, 64, 65, 66, 67, 68, 69, 70, 71]);
  });

  it('agrees with the recorded upstream conditions body where they overlap', async () => {
    const fs = await import('node:fs');
    const path = `${UPSTREAM_DIR}/v3/reference/conditions.json`;
    if (!fs.existsSync(path)) return skipConformance(path);
    const body = JSON.parse(fs.readFileSync(path, 'utf8')) as { results: ConditionRecord[] };
    for (const up of body.results) {
      const ours = CONDITIONS.find((c) => c.asset_class === up.asset_class && c.id === up.id && c.data_types.join() === up.data_types.join());
      if (!ours) continue;
      expect(ours).toEqual(up);
    }
  });

  it('quote conditions carry bbo + nbbo; id 12 is Manual Bid and Ask', () => {
    const quotes = CONDITIONS.filter((c) => c.type === 'quote_condition');
    expect(quotes.length).toBeGreaterThan(0);
    for (const q of quotes) expect(q.data_types).toEqual(['bbo', 'nbbo']);
    expect(quotes.find((q) => q.id === 12)?.name).toBe('Manual Bid and Ask');
  });

  it('crypto conditions 0/1/2', () => {
    const crypto = CONDITIONS.filter((c) => c.asset_class === 'crypto');
    expect(crypto.map((c) => [c.id, c.type, c.name])).toEqual([
      [0, 'regular', 'Regular Trade'],
      [1, 'buy_or_sell_side', 'Sell Side'],
      [2, 'buy_or_sell_side', 'Buy Side'],
    ]);
    for (const c of crypto) {
      expect(c.update_rules).toBeUndefined();
      expect(c.data_types).toEqual(['trade']);
    }
  });

  it('options conditions 201-248 map to OPRA letters; canceled/late never update OHLC', () => {
    const opts = CONDITIONS.filter((c) => c.asset_class === 'options');
    expect(opts).toHaveLength(33);
    for (const c of opts) {
      expect(c.id).toBeGreaterThanOrEqual(201);
      expect(c.id).toBeLessThanOrEqual(248);
      expect(c.type).toBe('sale_condition');
      expect(c.sip_mapping?.OPRA).toMatch(/^[A-Za-z]$/);
      if (/Canceled|Late/.test(c.name)) {
        const r = c.update_rules!.consolidated;
        expect(r.updates_high_low || r.updates_open_close).toBe(false);
      }
    }
    const letters = opts.map((c) => c.sip_mapping!.OPRA);
    expect(new Set(letters).size).toBe(letters.length);
    expect(opts.find((c) => c.id === 201)?.sip_mapping).toEqual({ OPRA: 'A' });
    expect(rules(opts.find((c) => c.id === 201)!)).toBe('FFF/FFF');
    expect(rules(opts.find((c) => c.id === 209)!)).toBe('TTT/TTT');
    expect(opts.find((c) => c.id === 248)?.sip_mapping).toEqual({ OPRA: 'v' });
  });
});
