// The two lists the fidelity check (fidelity.conformance.test.ts) reads. Each entry names the
// upstream operation (its path as upstream writes it, or '*' for every operation), the field (its
// path in the body, `results[].x`) and the reason.

export interface FieldNote {
  operation: string;
  field: string;
  reason: string;
}

const each = (operation: string, fields: readonly string[], reason: string): FieldNote[] => fields.map((field) => ({ operation, field, reason }));

const SNAPSHOTS_V2 = [
  '/v2/snapshot/locale/us/markets/stocks/tickers', '/v2/snapshot/locale/us/markets/stocks/{direction}',
  '/v2/snapshot/locale/global/markets/forex/tickers', '/v2/snapshot/locale/global/markets/forex/{direction}',
  '/v2/snapshot/locale/global/markets/crypto/tickers', '/v2/snapshot/locale/global/markets/crypto/{direction}',
];
const AGGS_RANGE = ['stocksTicker', 'optionsTicker', 'indicesTicker', 'forexTicker', 'cryptoTicker'].map((p) => `/v2/aggs/ticker/{${p}}/range/{multiplier}/{timespan}/{from}/{to}`);

/** Fields we send that upstream's schema does not declare. */
export const UPSTREAM_EXTENSIONS: readonly FieldNote[] = [
  { operation: '*', field: 'count', reason: "upstream's recorded list bodies carry count (tickers, grouped bars, snapshots, conditions); its schema leaves it out" },
  { operation: '*', field: 'notice', reason: 'ours: says which rows the plan\'s history window or delay cut from the body' },
  ...SNAPSHOTS_V2.map((operation) => ({ operation, field: 'request_id', reason: "upstream's recorded snapshot bodies carry request_id; its schema leaves it out" })),
  { operation: '/v2/snapshot/locale/global/markets/crypto/{direction}', field: 'status', reason: 'every upstream body carries status; this schema alone leaves it out' },
  ...AGGS_RANGE.map((operation) => ({ operation, field: 'next_url', reason: 'upstream pages aggregates with next_url (documented, rewriting {from}); its schema leaves it out' })),
  ...['stocksTicker', 'optionsTicker', 'indicesTicker'].map((p) => ({ operation: `/v2/aggs/ticker/{${p}}/prev`, field: 'results[].T', reason: "upstream's recorded previous-close body carries T (the ticker); this schema leaves it out" })),
  { operation: '/v3/reference/tickers', field: 'results[].source_feed', reason: 'upstream writes source_feed on index tickers (the feed that publishes the value); the list schema leaves it out' },
  { operation: '/v3/reference/tickers/{ticker}', field: 'results.last_updated_utc', reason: "upstream's recorded overview body carries last_updated_utc; its schema leaves it out" },
  { operation: '/v3/snapshot', field: 'results[].details.underlying_ticker', reason: "upstream's recorded universal snapshot carries details.underlying_ticker on options; its schema leaves it out" },
  { operation: '/v3/snapshot', field: 'results[].last_quote.exchange', reason: 'ours: the venue of a forex quote, as lastQuote.x of the v2 forex snapshot' },
  ...each('/vX/reference/tickers/{id}/events', ['results.events[].type', 'results.composite_figi', 'results.cik'],
    "upstream's recorded events body (and its schema's own example) carries these; the schema declares event_type instead of type and leaves out composite_figi and cik"),
  ...['trades', 'nbbo'].map((k) => ({ operation: `/v2/ticks/stocks/${k}/{ticker}/{date}`, field: 'map', reason: "upstream's documented example carries map (short key to field name); its schema leaves it out" })),
  { operation: '/v1/historic/forex/{from}/{to}/{date}', field: 'type', reason: "upstream's documented example carries type (forex); its schema leaves it out" },
  ...each('/v1/historic/crypto/{from}/{to}/{date}', ['status', 'type'], "upstream's documented example carries status and type (crypto); its schema leaves them out"),
  ...each('/vX/reference/ipos', ['results[].issue_start_date', 'results[].issue_end_date'], "upstream's documented example carries the offering period; its schema leaves it out"),
  ...each('/v2/snapshot/locale/global/markets/crypto/tickers/{ticker}/book', ['status', 'request_id'],
    "upstream's documented example carries status, and its other snapshot bodies request_id; this schema (a string joined to an object) declares only data"),
  ...['v1', 'vX'].map((v) => ({ operation: `/futures/${v}/aggs/{ticker}`, field: 'request_id', reason: "upstream's documented example carries request_id; the futures aggregates schema leaves it out" })),
  ...['v1', 'vX'].map((v) => ({ operation: `/futures/${v}/market-status`, field: 'results[].market_status', reason: "older clients (client-go's FuturesMarketStatus) read market_status; the current schema declares market_event only" })),
  ...['v1', 'vX'].flatMap((v) => each(`/futures/${v}/snapshot`, ['results[].ticker', 'results[].product_code'],
    "upstream's documented example carries the contract's ticker and product code on each item; its schema declares them under details only")),
];

const INDICATORS = ['sma', 'ema', 'rsi', 'macd'];

/** Fields upstream declares that our bodies on the demo data lack, and why. */
export const KNOWN_GAPS: readonly FieldNote[] = [
  // Fair market value is computed for the v2 stock snapshots only (snapshots.conformance asserts it there).
  ...each('*', ['tickers[].fmv', 'ticker.fmv', 'results[].fmv', 'results.fmv', 'results[].fmv_last_updated', 'results.fmv_last_updated'], 'fair market value (fmv) is computed for v2 stock snapshots only'),
  // otc is written only as true, on OTC tickers; no OTC ticker has market data in the demo.
  ...each('*', ['otc', 'results[].otc', 'results.underlying.aggregates[].otc', 'tickers[].day.otc', 'tickers[].min.otc', 'tickers[].prevDay.otc', 'ticker.day.otc', 'ticker.min.otc', 'ticker.prevDay.otc'], 'written (true) only for OTC tickers; the demo has no OTC market data'),
  ...each('/v3/snapshot', ['results[].error', 'results[].message'], 'written only for a requested ticker that is not found; the check lists every ticker'),
  ...each('*', ['results[].underlying_asset.value', 'results.underlying_asset.value'], 'written for index underlyings; the demo chains are on stocks'),
  { operation: '/v3/snapshot/options/{underlyingAsset}/{optionContract}', field: 'next_url', reason: 'one contract is one page; the schema shares the list envelope' },
  // Demo data that does not exist (the fields are served when imported data has them).
  ...each('*', ['results[].additional_underlyings', 'results.additional_underlyings', 'results[].correction', 'results.correction'], 'no demo option contract is adjusted or corrected'),
  { operation: '/v3/trades/{optionsTicker}', field: 'results[].correction', reason: 'demo option trades carry no corrections' },
  { operation: '/v3/trades/{cryptoTicker}', field: 'results[].received_timestamp', reason: 'the time upstream received a crypto trade is not stored' },
  ...each('/v3/quotes/{stockTicker}', ['results[].indicators', 'results[].trf_timestamp'], 'demo stock quotes carry no indicators and no TRF quotes'),
  ...each('/v2/last/trade/{stocksTicker}', ['results.e', 'results.f', 'results.r'], 'the last demo trade is neither corrected nor a TRF print'),
  ...each('/v2/last/trade/{optionsTicker}', ['results.e', 'results.f', 'results.r', 'results.z'], 'option trades have no TRF, tape or corrections (the schema is shared with stocks)'),
  ...each('/v2/last/nbbo/{stocksTicker}', ['results.c', 'results.f', 'results.i'], 'the last demo quote (after hours) carries no conditions, indicators or TRF time'),
  ...each('/v3/reference/conditions', ['results[].abbreviation', 'results[].exchange'], 'no condition of the shipped table has an abbreviation or an exchange'),
  ...each('/v3/reference/tickers', ['results[].delisted_utc'], 'the list shows active tickers by default'),
  ...each('/v3/reference/tickers/{ticker}', ['results.delisted_utc', 'results.ticker_suffix', 'results.address.address2', 'results.branding'], 'AAPL is listed, has no suffix or second address line; the sample loads no branding images'),
  { operation: '/v3/reference/tickers/{ticker}', field: 'count', reason: "upstream's recorded overview body has no count" },
  ...each('/stocks/financials/v1/balance-sheets', ['results[].commitments_and_contingencies', 'results[].other_equity'], 'the demo statements do not model these lines'),
  ...each('/stocks/financials/v1/cash-flow-statements', ['results[].income_loss_from_discontinued_operations', 'results[].net_cash_from_financing_activities_discontinued_operations',
    'results[].net_cash_from_investing_activities_discontinued_operations', 'results[].net_cash_from_operating_activities_discontinued_operations',
    'results[].noncontrolling_interests', 'results[].other_cash_adjustments'], 'the demo statements do not model these lines'),
  ...each('/stocks/financials/v1/income-statements', ['results[].discontinued_operations', 'results[].equity_in_affiliates', 'results[].extraordinary_items'], 'the demo statements do not model these lines'),
  ...each('/vX/reference/financials', ['results[].acceptance_datetime', 'results[].source_filing_url', 'results[].source_filing_file_url'],
    'the stored statements do not record the filing document they were taken from'),
  ...each('/vX/reference/financials', ['derived_from', 'formula', 'source', 'xpath'].map((f) => `results[].financials.balance_sheet.*.${f}`),
    'the XBRL sources of a data point (include_sources=true) are not stored'),
  { operation: '/vX/reference/financials', field: 'results[].sic', reason: "the SIC code comes from the filer's ticker in the reference data; the sample loads none of the filers' tickers" },
  ...INDICATORS.flatMap((k) => each(`/v1/indicators/${k}/{indicesTicker}`, ['results.underlying.aggregates[].n', 'results.underlying.aggregates[].v', 'results.underlying.aggregates[].vw'], 'index values have no volume or trades (the schema is shared with stocks)')),
  { operation: '/v1/indicators/rsi/{optionsTicker}', field: 'next_url', reason: 'a demo option contract has a handful of minute bars: one RSI value at most' },
  ...each('/v1/indicators/macd/{optionsTicker}', ['next_url', 'results.values[].histogram', 'results.values[].signal', 'results.values[].timestamp', 'results.values[].value'],
    'a demo option contract has a handful of minute bars: fewer than MACD reads before its first value'),
  ...each('/v1/open-close/{indicesTicker}/{date}', ['preMarket', 'afterHours'], 'index values are published in the regular session only'),
  ...each('/v1/open-close/{optionsTicker}/{date}', ['preMarket', 'afterHours'], 'options trade in the regular session only'),
  ...each('/etf-global/v1/profiles', ['results[].coupon_exposure', 'results[].maturity_exposure'], 'fixed-income breakdowns; the demo funds (SPY, QQQ) hold equities'),
  ...each('/etf-global/v1/taxonomies', ['results[].credit_quality_rating', 'results[].duration', 'results[].maturity'], 'fixed-income classes; the demo funds (SPY, QQQ) hold equities'),
  ...each('/etf-global/v1/profiles', ['results[].levered_amount'], 'written for leveraged and inverse funds; the demo funds are unlevered'),
  ...each('/etf-global/v1/taxonomies', ['results[].hedge_reset', 'results[].leverage_reset', 'results[].levered_amount'], 'written for leveraged, inverse or hedged funds; the demo funds are neither'),
  { operation: '/forex/v1/exchanges', field: 'next_url', reason: 'the shipped reference data has one forex venue: one page at any limit' },
  { operation: '/benzinga/v1/consensus-ratings/{ticker}', field: 'next_url', reason: 'the consensus of one ticker is one row: one page at any limit' },
  ...each('/v2/ticks/stocks/nbbo/{ticker}/{date}', ['results[].f', 'results[].i'], 'demo stock quotes carry no indicators and no TRF quotes'),
  ...each('/v3/snapshot/indices', ['results[].error', 'results[].message'], 'written only for a requested ticker that is not found; the check lists every ticker'),
  { operation: '/v1/summaries', field: 'results[].branding', reason: 'the sample loads no branding images' },
  { operation: '/v1/open-close/{stocksTicker}/{date}', field: 'preMarket', reason: 'upstream declares the pre-market price an integer; it is a price, sent as a number' },
  ...each('/v1/reference/ipos', ['results[].announced_date', 'results[].last_updated', 'results[].listing_date'],
    "upstream declares these int64; its own example (and the vX schema) sends them as dates YYYY-MM-DD, as we do"),
];

/** Whether `field` of `operation` is in `list`. */
export function listedFor(list: readonly FieldNote[], operation: string, field: string): boolean {
  return list.some((n) => (n.operation === '*' || n.operation === operation) && n.field === field);
}
