import { Type, type Static } from '@sinclair/typebox';

// Wire shape of an item of the universal snapshot (upstream's SnapshotResponseModel): every key
// but `ticker` is optional, and absent keys are omitted, never sent as null.

export const UNIVERSAL_TYPES = ['stocks', 'options', 'fx', 'crypto', 'indices'] as const;
export type UniversalAssetType = (typeof UNIVERSAL_TYPES)[number];

const OptNum = () => Type.Optional(Type.Number());
const Ns = () => Type.Unsafe<bigint>(Type.Integer());
const OptNs = () => Type.Optional(Ns());
const OptStr = () => Type.Optional(Type.String());

export const Session = Type.Object({
  change: OptNum(),
  change_percent: OptNum(),
  close: OptNum(),
  high: OptNum(),
  low: OptNum(),
  open: OptNum(),
  previous_close: OptNum(),
  price: OptNum(),
  volume: OptNum(),
  decimal_volume: OptStr(),
  // stocks: the change split by the part of the session it happened in
  early_trading_change: OptNum(),
  early_trading_change_percent: OptNum(),
  regular_trading_change: OptNum(),
  regular_trading_change_percent: OptNum(),
  late_trading_change: OptNum(),
  late_trading_change_percent: OptNum(),
});

/** An option contract's terms. */
export const OptionDetails = Type.Object({
  contract_type: Type.String(),
  exercise_style: Type.String(),
  expiration_date: Type.String(),
  shares_per_contract: Type.Number(),
  strike_price: Type.Number(),
  underlying_ticker: Type.String(),
});

export const UniversalItem = Type.Object({
  ticker: Type.String(),
  error: OptStr(),
  message: OptStr(),
  name: OptStr(),
  type: Type.Optional(Type.Unsafe<UniversalAssetType>({ type: 'string', enum: [...UNIVERSAL_TYPES] })),
  market_status: OptStr(),
  timeframe: OptStr(),
  value: OptNum(),
  last_updated: OptNs(),
  session: Type.Optional(Session),
  last_minute: Type.Optional(
    Type.Object({
      open: OptNum(),
      high: OptNum(),
      low: OptNum(),
      close: OptNum(),
      volume: OptNum(),
      decimal_volume: OptStr(),
      vwap: OptNum(),
      transactions: Type.Optional(Type.Integer()),
    }),
  ),
  last_trade: Type.Optional(
    Type.Object({
      conditions: Type.Optional(Type.Array(Type.Integer())),
      exchange: Type.Optional(Type.Integer()),
      id: OptStr(),
      price: Type.Number(),
      size: OptNum(),
      decimal_size: OptStr(),
      sip_timestamp: OptNs(),
      participant_timestamp: OptNs(),
      last_updated: OptNs(),
      timeframe: OptStr(),
    }),
  ),
  last_quote: Type.Optional(
    Type.Object({
      ask: Type.Number(),
      ask_size: OptNum(),
      ask_exchange: Type.Optional(Type.Integer()),
      bid: Type.Number(),
      bid_size: OptNum(),
      bid_exchange: Type.Optional(Type.Integer()),
      exchange: Type.Optional(Type.Integer()),
      midpoint: OptNum(),
      last_updated: Ns(),
      timeframe: OptStr(),
    }),
  ),
  // options
  break_even_price: OptNum(),
  details: Type.Optional(OptionDetails),
  greeks: Type.Optional(Type.Object({ delta: OptNum(), gamma: OptNum(), theta: OptNum(), vega: OptNum() })),
  implied_volatility: OptNum(),
  open_interest: OptNum(),
  underlying_asset: Type.Optional(
    Type.Object({ ticker: Type.String(), price: OptNum(), change_to_break_even: OptNum(), last_updated: OptNs(), timeframe: OptStr() }),
  ),
});
export type UniversalItem = Static<typeof UniversalItem>;
export type UniversalSession = Static<typeof Session>;
