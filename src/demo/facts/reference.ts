// Static reference data shipped with the demo dataset (and usable as seed data for any store):
// ticker types, exchanges and condition codes. Where a comment tags a value's source: C = the
// official client library's mocks, O = observed in live upstream responses, U = unconfirmed, our
// choice. Fields upstream leaves empty are omitted here (never null, never '').

import type { ConditionRecord, ExchangeRecord, TickerTypeRecord, UpdateRule } from '../../store/records.js';

// ---------------------------------------------------------------------------------------------
// Ticker types — 25 codes, upstream's own order; IX (indices) last.
// ---------------------------------------------------------------------------------------------

const STOCK_TYPES: ReadonlyArray<readonly [code: string, description: string]> = [
  ['CS', 'Common Stock'],
  ['PFD', 'Preferred Stock'],
  ['WARRANT', 'Warrant'],
  ['RIGHT', 'Rights'],
  ['BOND', 'Corporate Bond'],
  ['ETF', 'Exchange Traded Fund'],
  ['ETN', 'Exchange Traded Note'],
  ['ETV', 'Exchange Traded Vehicle'],
  ['SP', 'Structured Product'],
  ['ADRC', 'American Depository Receipt Common'],
  ['ADRP', 'American Depository Receipt Preferred'],
  ['ADRW', 'American Depository Receipt Warrants'],
  ['ADRR', 'American Depository Receipt Rights'],
  ['FUND', 'Fund'],
  ['BASKET', 'Basket'],
  ['UNIT', 'Unit'],
  ['LT', 'Liquidating Trust'],
  ['OS', 'Ordinary Shares'],
  ['GDR', 'Global Depository Receipts'],
  ['OTHER', 'Other Security Type'],
  ['NYRS', 'New York Registry Shares'],
  ['AGEN', 'Agency Bond'],
  ['EQLK', 'Equity Linked Bond'],
  ['ETS', 'Single-security ETF'],
];

export const TICKER_TYPES: TickerTypeRecord[] = [
  ...STOCK_TYPES.map(([code, description]): TickerTypeRecord => ({
    code,
    description,
    asset_class: 'stocks',
    locale: 'us',
  })),
  // Description text is our choice (U).
  { code: 'IX', description: 'Index', asset_class: 'indices', locale: 'us' },
];

// ---------------------------------------------------------------------------------------------
// Exchanges
// ---------------------------------------------------------------------------------------------

type StockExchangeRow = readonly [
  id: number,
  type: string,
  name: string,
  acronym: string,
  mic: string,
  operatingMic: string,
  participantId: string,
  url: string,
];

/** Stocks, locale us — live capture (O), 27 rows. Empty string = field omitted. */
const STOCK_EXCHANGE_ROWS: readonly StockExchangeRow[] = [
  [1, 'exchange', 'NYSE American, LLC', 'AMEX', 'XASE', 'XNYS', 'A', 'https://www.nyse.com/markets/nyse-american'],
  [2, 'exchange', 'Nasdaq Texas, Inc.', '', 'XBOS', 'XNAS', 'B', 'https://www.nasdaq.com/solutions/nasdaq-bx-stock-market'],
  [3, 'exchange', 'NYSE National, Inc.', 'NSX', 'XCIS', 'XNYS', 'C', 'https://www.nyse.com/markets/nyse-national'],
  [4, 'TRF', 'FINRA Alternative Display Facility', '', 'XADF', 'FINR', 'D', 'https://www.finra.org'],
  [5, 'SIP', 'Unlisted Trading Privileges', '', '', 'XNAS', 'E', 'https://www.utpplan.com'],
  [6, 'TRF', 'International Securities Exchange, LLC - Stocks', '', 'XISE', 'XNAS', 'I', 'https://nasdaq.com/solutions/nasdaq-ise'],
  [7, 'exchange', 'Cboe EDGA', '', 'EDGA', 'XCBO', 'J', 'https://www.cboe.com/us/equities'],
  [8, 'exchange', 'Cboe EDGX', '', 'EDGX', 'XCBO', 'K', 'https://www.cboe.com/us/equities'],
  [9, 'exchange', 'NYSE Texas, Inc.', '', 'XCHI', 'XNYS', 'M', 'https://www.nyse.com/markets/nyse-texas'],
  [10, 'exchange', 'New York Stock Exchange', '', 'XNYS', 'XNYS', 'N', 'https://www.nyse.com'],
  [11, 'exchange', 'NYSE Arca, Inc.', '', 'ARCX', 'XNYS', 'P', 'https://www.nyse.com/markets/nyse-arca'],
  [12, 'exchange', 'Nasdaq', '', 'XNAS', 'XNAS', 'T', 'https://www.nasdaq.com'],
  [13, 'SIP', 'Consolidated Tape Association', '', '', 'XNYS', 'S', 'https://www.nyse.com/data/cta'],
  [14, 'exchange', 'Long-Term Stock Exchange', '', 'LTSE', 'LTSE', 'L', 'https://www.ltse.com'],
  [15, 'exchange', 'Investors Exchange', '', 'IEXG', 'IEXG', 'V', 'https://www.iextrading.com'],
  [16, 'TRF', 'Cboe Stock Exchange', '', 'CBSX', 'XCBO', 'W', 'https://www.cboe.com'],
  [17, 'exchange', 'Nasdaq Philadelphia Exchange LLC', '', 'XPHL', 'XNAS', 'X', 'https://www.nasdaq.com/solutions/nasdaq-phlx'],
  [18, 'exchange', 'Cboe BYX', '', 'BATY', 'XCBO', 'Y', 'https://www.cboe.com/us/equities'],
  [19, 'exchange', 'Cboe BZX', '', 'BATS', 'XCBO', 'Z', 'https://www.cboe.com/us/equities'],
  [20, 'exchange', 'MIAX Pearl', '', 'EPRL', 'MIHI', 'H', 'https://www.miaxoptions.com/alerts/pearl-equities'],
  [21, 'exchange', 'Members Exchange', '', 'MEMX', 'MEMX', 'U', 'https://www.memx.com'],
  [22, 'exchange', '24X National Exchange LLC', '24X', '24EQ', '24EQ', 'G', 'https://24exchange.com/'],
  [23, 'exchange', 'Texas Stock Exchange LLC', 'TXSE', 'TXSE', 'TXSE', 'F', 'https://txse.com/'],
  [62, 'ORF', 'OTC Equity Security', '', 'OOTC', 'FINR', '', 'https://www.finra.org/filing-reporting/over-the-counter-reporting-facility-orf'],
  [201, 'TRF', 'FINRA NYSE TRF', '', 'FINY', 'FINR', '', 'https://www.finra.org'],
  [202, 'TRF', 'FINRA Nasdaq TRF Carteret', '', 'FINN', 'FINR', '', 'https://www.finra.org'],
  [203, 'TRF', 'FINRA Nasdaq TRF Chicago', '', 'FINC', 'FINR', '', 'https://www.finra.org'],
];

type OptionsExchangeRow = readonly [id: number, name: string, mic: string, operatingMic: string, participantId: string, acronym?: string, url?: string];

/**
 * Options, locale us. ids/names/MICs O; operating_mic and participant_id U (ISO 10383 / OPRA
 * participant list). acronym and url only where upstream's documented example shows them (O);
 * omitted elsewhere. type is `exchange` except OPRA (`SIP`).
 */
const OPTIONS_EXCHANGE_ROWS: readonly OptionsExchangeRow[] = [
  [300, 'NYSE American Options', 'AMXO', 'XNYS', 'A'],
  [301, 'Boston Options Exchange', 'XBOX', 'XBOX', 'B'],
  [302, 'Chicago Board Options Exchange', 'XCBO', 'XCBO', 'C', '', 'https://www.cboe.com'],
  [303, 'MIAX Emerald, LLC', 'EMLD', 'MIHI', 'D'],
  [304, 'Cboe EDGX Options', 'EDGO', 'XCBO', 'E'],
  [307, 'Nasdaq Global Markets Exchange Group (i.e. Nasdaq GEMX)', 'GMNI', 'XNAS', 'H'],
  [308, 'International Securities Exchange, LLC', 'XISX', 'XNAS', 'I', 'ISE', 'https://www.nasdaq.com/solutions/nasdaq-ise'],
  [309, 'Nasdaq MRX Options Exchange', 'MCRY', 'XNAS', 'J'],
  [312, 'MIAX International Securities Exchange, LLC', 'XMIO', 'MIHI', 'M'],
  [313, 'NYSE Arca, Inc. - Options', 'ARCO', 'XNYS', 'N'],
  [314, 'Options Price Reporting Authority', 'OPRA', '', 'O'],
  [315, 'MIAX Pearl, LLC - Options', 'MPRL', 'MIHI', 'P'],
  [316, 'Nasdaq Options Market', 'XNDQ', 'XNAS', 'Q'],
  [319, 'Nasdaq BX - Options', 'XBXO', 'XNAS', 'T'],
  [322, 'Cboe C2 Options Exchange', 'C2OX', 'XCBO', 'W'],
  [323, 'Nasdaq Philadelphia Exchange, LLC - Options', 'XPHO', 'XNAS', 'X'],
  [325, 'Cboe BZX Options Exchange', 'BATO', 'XCBO', 'Z'],
];

/** Crypto venues (O: ids used by public code against upstream). url is our choice (U). */
const CRYPTO_EXCHANGE_ROWS: ReadonlyArray<readonly [id: number, name: string, url: string]> = [
  [1, 'Coinbase', 'https://www.coinbase.com'],
  [2, 'Bitfinex', 'https://www.bitfinex.com'],
  [6, 'Bitstamp', 'https://www.bitstamp.net'],
  [23, 'Kraken', 'https://www.kraken.com'],
];

function dropEmpty<T extends object>(obj: T): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) {
    if (v !== '' && v !== undefined && v !== null) out[k] = v;
  }
  return out as T;
}

export const EXCHANGES: ExchangeRecord[] = [
  ...STOCK_EXCHANGE_ROWS.map(([id, type, name, acronym, mic, operating_mic, participant_id, url]) =>
    dropEmpty<ExchangeRecord>({
      id,
      type,
      asset_class: 'stocks',
      locale: 'us',
      name,
      acronym,
      mic,
      operating_mic,
      participant_id,
      url,
    }),
  ),
  ...OPTIONS_EXCHANGE_ROWS.map(([id, name, mic, operating_mic, participant_id, acronym, url]) =>
    dropEmpty<ExchangeRecord>({
      id,
      type: mic === 'OPRA' ? 'SIP' : 'exchange',
      asset_class: 'options',
      locale: 'us',
      name,
      acronym,
      mic,
      operating_mic,
      participant_id,
      url,
    }),
  ),
  ...CRYPTO_EXCHANGE_ROWS.map(
    ([id, name, url]): ExchangeRecord => ({
      id,
      type: 'exchange',
      asset_class: 'crypto',
      locale: 'global',
      name,
      url,
    }),
  ),
  // FX: one aggregate venue (U). Forex quotes in the recorded upstream bodies carry exchange 48.
  {
    id: 48,
    type: 'exchange',
    asset_class: 'fx',
    locale: 'global',
    name: 'Currency Banks Aggregate',
  },
];

// ---------------------------------------------------------------------------------------------
// Condition codes
// ---------------------------------------------------------------------------------------------

/** 'TTF' -> {updates_high_low: true, updates_open_close: true, updates_volume: false}. */
function rule(hov: string): UpdateRule {
  if (!/^[TF]{3}$/.test(hov)) throw new Error(`bad update rule ${hov}`);
  return {
    updates_high_low: hov[0] === 'T',
    updates_open_close: hov[1] === 'T',
    updates_volume: hov[2] === 'T',
  };
}

/** 'CTA:B, UTP:W' -> {CTA: 'B', UTP: 'W'}; '' -> undefined. */
function sip(mapping: string): Record<string, string> | undefined {
  if (mapping === '') return undefined;
  const out: Record<string, string> = {};
  for (const part of mapping.split(',')) {
    const [feed, code] = part.trim().split(':');
    if (!feed || code === undefined || code.length !== 1) throw new Error(`bad sip mapping ${mapping}`);
    out[feed] = code;
  }
  return out;
}

type StockConditionRow = readonly [
  id: number,
  name: string,
  type: string,
  sipMapping: string,
  consolidated: string, // '' = no update_rules
  marketCenter: string,
  legacy?: boolean,
];

/**
 * Stock trade conditions (asset_class stocks, data_types ['trade']). '' in the sip column = no
 * known SIP mapping → sip_mapping omitted. Condition 55's type is unconfirmed; we chose
 * `sip_generated_flag`.
 */
const STOCK_TRADE_CONDITIONS: readonly StockConditionRow[] = [
  [1, 'Acquisition', 'sale_condition', 'UTP:A', 'TTT', 'TTT'],
  [2, 'Average Price Trade', 'sale_condition', 'CTA:B, UTP:W', 'FFT', 'FFT'],
  [3, 'Automatic Execution', 'sale_condition', 'CTA:E', 'TTT', 'TTT'],
  [4, 'Bunched Trade', 'sale_condition', 'UTP:B', 'TTT', 'TTT'],
  [5, 'Bunched Sold Trade', 'sale_condition', 'UTP:G', 'TFT', 'TFT'],
  [6, 'CAP Election', 'sale_condition', 'CTA:I', 'TTT', 'TTT', true],
  [7, 'Cash Sale', 'sale_condition', 'CTA:C, UTP:C', 'FFT', 'FFT'],
  [8, 'Closing Prints', 'sale_condition', 'UTP:6', 'TTT', 'TTT'],
  [9, 'Cross Trade', 'sale_condition', 'CTA:X, UTP:X', 'TTT', 'TTT'],
  [10, 'Derivatively Priced', 'sale_condition', 'CTA:4, UTP:4', 'TFT', 'TFT'],
  [11, 'Distribution', 'sale_condition', 'UTP:D', 'TTT', 'TTT'],
  [12, 'Form T/Extended Hours', 'sale_condition', 'CTA:T, UTP:T', 'FFT', 'FFT'],
  [13, 'Extended Hours (Sold Out Of Sequence)', 'sale_condition', 'CTA:U, UTP:U', 'FFT', 'FFT'],
  [14, 'Intermarket Sweep', 'sale_condition', 'CTA:F, UTP:F', 'TTT', 'TTT'],
  [15, 'Market Center Official Close', 'sale_condition', 'CTA:M, UTP:M', 'FFF', 'TTF'],
  [16, 'Market Center Official Open', 'sale_condition', 'CTA:Q, UTP:Q', 'FFF', 'TTF'],
  [17, 'Market Center Opening Trade', 'sale_condition', 'CTA:O', 'TTT', 'TTT'],
  [18, 'Market Center Reopening Trade', 'sale_condition', 'CTA:5', 'TTT', 'TTT'],
  [19, 'Market Center Closing Trade', 'sale_condition', 'CTA:6', 'TTT', 'TTT'],
  [20, 'Next Day', 'sale_condition', 'CTA:N, UTP:N', 'FFT', 'FFT'],
  [21, 'Price Variation Trade', 'sale_condition', 'CTA:H, UTP:H', 'FFT', 'FFT'],
  [22, 'Prior Reference Price', 'sale_condition', 'CTA:P, UTP:P', 'TFT', 'TFT'],
  [23, 'Rule 155 Trade (AMEX)', 'sale_condition', 'CTA:K, UTP:K', 'TTT', 'TTT'],
  [24, 'Rule 127 (NYSE Only)', 'sale_condition', '', 'TTT', 'TTT'],
  [25, 'Opening Prints', 'sale_condition', 'UTP:O', 'TTT', 'TTT'],
  [27, 'Stopped Stock (Regular Trade)', 'sale_condition', 'UTP:1', 'TTT', 'TTT'],
  [28, 'Re-Opening Prints', 'sale_condition', 'UTP:5', 'TTT', 'TTT'],
  [29, 'Seller', 'sale_condition', 'CTA:R, UTP:R', 'TFT', 'TFT'],
  [30, 'Sold Last', 'sale_condition', 'CTA:L, UTP:L', 'TTT', 'TTT'],
  [31, 'Sold Last and Stopped Stock', 'sale_condition', 'UTP:2', 'TTT', 'TTT'],
  [32, 'Sold (Out Of Sequence)', 'sale_condition', 'CTA:Z, UTP:Z', 'TFT', 'TFT'],
  [33, 'Sold (Out of Sequence) and Stopped Stock', 'sale_condition', 'UTP:3', 'TFT', 'TFT'],
  [34, 'Split Trade', 'sale_condition', 'UTP:S', 'TTT', 'TTT'],
  [35, 'Stock Option', 'sale_condition', '', 'TTT', 'TTT'],
  [36, 'Yellow Flag Regular Trade', 'sale_condition', 'UTP:Y', 'TTT', 'TTT'],
  [37, 'Odd Lot Trade', 'sale_condition', 'CTA:I, UTP:I', 'FFT', 'FFT'],
  [38, 'Corrected Consolidated Close (per listing market)', 'sale_condition', 'CTA:9, UTP:9', 'TTF', 'FFF'],
  [41, 'Trade Thru Exempt', 'trade_thru_exempt', '', 'TTT', 'TTT'],
  [52, 'Contingent Trade', 'sale_condition', 'CTA:V, UTP:V', 'FFT', 'FFT'],
  [53, 'Qualified Contingent Trade', 'sale_condition', 'CTA:7, UTP:7', 'FFT', 'FFT'],
  [55, 'Opening Reopening Trade Detail', 'sip_generated_flag', '', '', ''],
  [57, 'Short Sale Restriction Activated', 'short_sale_restriction_indicator', '', '', ''],
  [58, 'Short Sale Restriction Continued', 'short_sale_restriction_indicator', '', '', ''],
  [59, 'Short Sale Restriction Deactivated', 'short_sale_restriction_indicator', '', '', ''],
  [60, 'Short Sale Restriction In Effect', 'short_sale_restriction_indicator', '', '', ''],
  [62, 'Financial Status - Bankrupt', 'financial_status_indicator', '', '', ''],
  [63, 'Financial Status - Deficient', 'financial_status_indicator', '', '', ''],
  [64, 'Financial Status - Delinquent', 'financial_status_indicator', '', '', ''],
  [65, 'Financial Status - Bankrupt and Deficient', 'financial_status_indicator', '', '', ''],
  [66, 'Financial Status - Bankrupt and Delinquent', 'financial_status_indicator', '', '', ''],
  [67, 'Financial Status - Deficient and Delinquent', 'financial_status_indicator', '', '', ''],
  [68, 'Financial Status - Deficient, Delinquent, and Bankrupt', 'financial_status_indicator', '', '', ''],
  [69, 'Financial Status - Liquidation', 'financial_status_indicator', '', '', ''],
  [70, 'Financial Status - Creations Suspended', 'financial_status_indicator', '', '', ''],
  [71, 'Financial Status - Redemptions Suspended', 'financial_status_indicator', '', '', ''],
];

/**
 * Stock quote conditions (data_types bbo + nbbo). Only id 12 "Manual Bid and Ask" is observed
 * upstream (O); the others are examples we chose (U) and carry no sip_mapping.
 */
const STOCK_QUOTE_CONDITIONS: ReadonlyArray<readonly [id: number, name: string]> = [
  [1, 'Regular, Two-Sided Open'],
  [2, 'Regular, One-Sided Open'],
  [12, 'Manual Bid and Ask'],
  [13, 'Opening'],
  [14, 'Closing'],
  [15, 'Closed'],
  [17, 'Fast Trading'],
];

/**
 * Options trade conditions (asset_class options, type sale_condition, data_types ['trade']).
 * Names O; OPRA letters and update rules U. Rules chosen: canceled prints update nothing; late /
 * out-of-sequence prints count volume only; complex (multi-leg / stock-option) and extended-hours
 * prints count volume only (their prices are package or off-session prices); regular single-leg
 * prints update everything.
 */
const OPTIONS_TRADE_CONDITIONS: ReadonlyArray<readonly [id: number, name: string, opra: string, rules: string]> = [
  [201, 'Canceled', 'A', 'FFF'],
  [202, 'Late and Out Of Sequence', 'B', 'FFT'],
  [203, 'Last and Canceled', 'C', 'FFF'],
  [204, 'Late', 'D', 'FFT'],
  [205, 'Opening Trade and Canceled', 'E', 'FFF'],
  [206, 'Opening Trade, Late, and Out Of Sequence', 'F', 'FFT'],
  [207, 'Only Trade and Canceled', 'G', 'FFF'],
  [208, 'Opening Trade and Late', 'H', 'FFT'],
  [209, 'Automatic Execution', 'I', 'TTT'],
  [210, 'Reopening Trade', 'J', 'TTT'],
  [219, 'Intermarket Sweep Order', 'S', 'TTT'],
  [227, 'Single Leg Auction Non ISO', 'a', 'TTT'],
  [228, 'Single Leg Auction ISO', 'b', 'TTT'],
  [229, 'Single Leg Cross Non ISO', 'c', 'TTT'],
  [230, 'Single Leg Cross ISO', 'd', 'TTT'],
  [231, 'Single Leg Floor Trade', 'e', 'TTT'],
  [232, 'Multi Leg auto-electronic trade', 'f', 'FFT'],
  [233, 'Multi Leg Auction', 'g', 'FFT'],
  [234, 'Multi Leg Cross', 'h', 'FFT'],
  [235, 'Multi Leg floor trade', 'i', 'FFT'],
  [236, 'Multi Leg auto-electronic trade against single leg(s)', 'j', 'FFT'],
  [237, 'Stock Options Auction', 'k', 'FFT'],
  [238, 'Multi Leg Auction against single leg(s)', 'l', 'FFT'],
  [239, 'Multi Leg floor trade against single leg(s)', 'm', 'FFT'],
  [240, 'Stock Options auto-electronic trade', 'n', 'FFT'],
  [241, 'Stock Options Cross', 'o', 'FFT'],
  [242, 'Stock Options floor trade', 'p', 'FFT'],
  [243, 'Stock Options auto-electronic trade against single leg(s)', 'q', 'FFT'],
  [244, 'Stock Options Auction against single leg(s)', 'r', 'FFT'],
  [245, 'Stock Options floor trade against single leg(s)', 's', 'FFT'],
  [246, 'Multi Leg Floor Trade of Proprietary Products', 't', 'FFT'],
  [247, 'Multilateral Compression Trade of Proprietary Products', 'u', 'FFT'],
  [248, 'Extended Hours Trade', 'v', 'FFT'],
];

function stockTradeCondition([id, name, type, mapping, cons, mc, legacy]: StockConditionRow): ConditionRecord {
  const rec: ConditionRecord = { id, type, name, asset_class: 'stocks', data_types: ['trade'] };
  const m = sip(mapping);
  if (m) rec.sip_mapping = m;
  if (legacy === true) rec.legacy = true;
  if (cons !== '') rec.update_rules = { consolidated: rule(cons), market_center: rule(mc) };
  return rec;
}

export const CONDITIONS: ConditionRecord[] = [
  ...STOCK_TRADE_CONDITIONS.map(stockTradeCondition),
  ...STOCK_QUOTE_CONDITIONS.map(
    ([id, name]): ConditionRecord => ({
      id,
      type: 'quote_condition',
      name,
      asset_class: 'stocks',
      data_types: ['bbo', 'nbbo'],
    }),
  ),
  { id: 0, type: 'regular', name: 'Regular Trade', asset_class: 'crypto', data_types: ['trade'] },
  {
    id: 1,
    type: 'buy_or_sell_side',
    name: 'Sell Side',
    description: 'The trade was executed at the best bid (seller-initiated).',
    asset_class: 'crypto',
    data_types: ['trade'],
  },
  {
    id: 2,
    type: 'buy_or_sell_side',
    name: 'Buy Side',
    description: 'The trade was executed at the best ask (buyer-initiated).',
    asset_class: 'crypto',
    data_types: ['trade'],
  },
  ...OPTIONS_TRADE_CONDITIONS.map(
    ([id, name, opra, rules]): ConditionRecord => ({
      id,
      type: 'sale_condition',
      name,
      asset_class: 'options',
      sip_mapping: { OPRA: opra },
      data_types: ['trade'],
      update_rules: { consolidated: rule(rules), market_center: rule(rules) },
    }),
  ),
];
