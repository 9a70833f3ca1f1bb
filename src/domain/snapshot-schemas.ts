import { Type, type Static } from '@sinclair/typebox';

// Wire shapes of the snapshot objects of stocks, forex, crypto and options. Services build values of these types; the
// routes serialise them. Optional keys are omitted when there is no value, never sent as null.

const Num = () => Type.Number();
const OptNum = () => Type.Optional(Type.Number());
/** Nanosecond timestamps: bigint in code, written as bare JSON integers. */
const Ns = () => Type.Unsafe<bigint>(Type.Integer());

// ---------------------------------------------------------------------------------------------
// Stocks

const StockDay = Type.Object({ o: Num(), h: Num(), l: Num(), c: Num(), v: Num(), dv: Type.Optional(Type.String()), vw: OptNum(), otc: Type.Optional(Type.Boolean()) });
const StockMin = Type.Object({
  av: Type.Number(),
  dav: Type.Optional(Type.String()),
  o: Num(),
  h: Num(),
  l: Num(),
  c: Num(),
  v: Num(),
  dv: Type.Optional(Type.String()),
  vw: OptNum(),
  t: Type.Integer(),
  n: Type.Optional(Type.Integer()),
  otc: Type.Optional(Type.Boolean()),
});
const StockLastTrade = Type.Object({
  c: Type.Optional(Type.Array(Type.Integer())),
  i: Type.Optional(Type.String()),
  p: Num(),
  s: Num(),
  ds: Type.Optional(Type.String()),
  t: Ns(),
  x: Type.Integer(),
});
const StockLastQuote = Type.Object({ P: Num(), S: OptNum(), p: Num(), s: OptNum(), t: Ns() });

export const StockSnapshot = Type.Object({
  ticker: Type.String(),
  day: StockDay,
  fmv: OptNum(),
  min: Type.Optional(StockMin),
  prevDay: Type.Optional(StockDay),
  lastTrade: Type.Optional(StockLastTrade),
  lastQuote: Type.Optional(StockLastQuote),
  todaysChange: Num(),
  todaysChangePerc: Num(),
  updated: Ns(),
});
export type StockSnapshot = Static<typeof StockSnapshot>;

// ---------------------------------------------------------------------------------------------
// Forex: quote-driven, times in ms

const FxBar = Type.Object({ o: Num(), h: Num(), l: Num(), c: Num(), v: Num(), vw: OptNum() });
const FxMin = Type.Object({ o: Num(), h: Num(), l: Num(), c: Num(), v: Num(), n: Type.Optional(Type.Integer()), t: Type.Integer() });
const FxLastQuote = Type.Object({ a: Num(), b: Num(), t: Type.Integer(), x: Type.Optional(Type.Integer()) });

export const ForexSnapshot = Type.Object({
  ticker: Type.String(),
  day: FxBar,
  min: Type.Optional(FxMin),
  prevDay: Type.Optional(FxBar),
  lastQuote: Type.Optional(FxLastQuote),
  todaysChange: Num(),
  todaysChangePerc: Num(),
  updated: Type.Integer(),
});
export type ForexSnapshot = Static<typeof ForexSnapshot>;

// ---------------------------------------------------------------------------------------------
// Crypto: trade-driven like stocks, times in ms

const CryptoBar = Type.Object({ o: Num(), h: Num(), l: Num(), c: Num(), v: Num(), vw: OptNum() });
const CryptoMin = Type.Object({ o: Num(), h: Num(), l: Num(), c: Num(), v: Num(), vw: OptNum(), t: Type.Integer(), n: Type.Optional(Type.Integer()) });
const CryptoLastTrade = Type.Object({
  c: Type.Optional(Type.Array(Type.Integer())),
  i: Type.Optional(Type.String()),
  p: Num(),
  s: Num(),
  t: Type.Integer(),
  x: Type.Integer(),
});

export const CryptoSnapshot = Type.Object({
  ticker: Type.String(),
  day: CryptoBar,
  min: Type.Optional(CryptoMin),
  prevDay: Type.Optional(CryptoBar),
  lastTrade: Type.Optional(CryptoLastTrade),
  todaysChange: Num(),
  todaysChangePerc: Num(),
  updated: Type.Integer(),
});
export type CryptoSnapshot = Static<typeof CryptoSnapshot>;

// ---------------------------------------------------------------------------------------------
// Options

const Timeframe = () => Type.String();

export const OptionSnapshot = Type.Object({
  break_even_price: OptNum(),
  day: Type.Object({
    open: OptNum(),
    high: OptNum(),
    low: OptNum(),
    close: OptNum(),
    volume: OptNum(),
    vwap: OptNum(),
    previous_close: OptNum(),
    change: OptNum(),
    change_percent: OptNum(),
    last_updated: Type.Optional(Ns()),
  }),
  details: Type.Object({
    contract_type: Type.String(),
    exercise_style: Type.String(),
    expiration_date: Type.String(),
    shares_per_contract: Num(),
    strike_price: Num(),
    ticker: Type.String(),
  }),
  greeks: Type.Optional(Type.Object({ delta: OptNum(), gamma: OptNum(), theta: OptNum(), vega: OptNum() })),
  implied_volatility: OptNum(),
  last_quote: Type.Optional(
    Type.Object({
      ask: Num(),
      ask_size: OptNum(),
      ask_exchange: Type.Optional(Type.Integer()),
      bid: Num(),
      bid_size: OptNum(),
      bid_exchange: Type.Optional(Type.Integer()),
      midpoint: Num(),
      last_updated: Ns(),
      timeframe: Timeframe(),
    }),
  ),
  last_trade: Type.Optional(
    Type.Object({
      price: Num(),
      size: Num(),
      exchange: Type.Integer(),
      conditions: Type.Optional(Type.Array(Type.Integer())),
      sip_timestamp: Ns(),
      timeframe: Timeframe(),
    }),
  ),
  open_interest: OptNum(),
  underlying_asset: Type.Object({
    ticker: Type.String(),
    price: OptNum(),
    change_to_break_even: OptNum(),
    last_updated: Type.Optional(Ns()),
    timeframe: Timeframe(),
  }),
});
export type OptionSnapshot = Static<typeof OptionSnapshot>;
