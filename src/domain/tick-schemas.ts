import { Type, type Static } from '@sinclair/typebox';

// Wire shapes of trades and quotes: the v3 lists and the last trade / last quote. Services build
// values of these types; the routes declare them as their responses. Optional keys are omitted
// when there is no value, never sent as null.

/** Nanosecond timestamps and sequence numbers: bigint in code, written as bare JSON integers. */
const Ns = () => Type.Unsafe<bigint>(Type.Integer());
const Codes = () => Type.Array(Type.Integer());

export const TradeWire = Type.Object({
  conditions: Type.Optional(Codes()),
  correction: Type.Optional(Type.Integer()),
  decimal_size: Type.Optional(Type.String()),
  exchange: Type.Integer(),
  id: Type.Optional(Type.String()),
  participant_timestamp: Type.Optional(Ns()),
  price: Type.Number(),
  sequence_number: Type.Optional(Ns()),
  sip_timestamp: Type.Optional(Ns()),
  size: Type.Number(),
  tape: Type.Optional(Type.Integer()),
  trf_id: Type.Optional(Type.Integer()),
  trf_timestamp: Type.Optional(Ns()),
});
export type TradeWire = Static<typeof TradeWire>;

export const QuoteWire = Type.Object({
  ask_exchange: Type.Optional(Type.Integer()),
  ask_price: Type.Number(),
  ask_size: Type.Optional(Type.Number()),
  bid_exchange: Type.Optional(Type.Integer()),
  bid_price: Type.Number(),
  bid_size: Type.Optional(Type.Number()),
  conditions: Type.Optional(Codes()),
  indicators: Type.Optional(Codes()),
  participant_timestamp: Type.Optional(Ns()),
  sequence_number: Type.Optional(Ns()),
  sip_timestamp: Type.Optional(Ns()),
  tape: Type.Optional(Type.Integer()),
  trf_timestamp: Type.Optional(Ns()),
});
export type QuoteWire = Static<typeof QuoteWire>;

// The per-market tick lists the official client calls beyond v3: /options/v3/trades|quotes and
// /stocks/dev/trades. Each row names its ticker and carries only the fields upstream declares
// for it (no id, tape or TRF fields on options; no conditions or indicators on option quotes).

export const OptionTradeWire = Type.Composite([
  Type.Pick(TradeWire, ['conditions', 'exchange', 'participant_timestamp', 'price', 'sequence_number', 'sip_timestamp', 'size']),
  Type.Object({ ticker: Type.String() }),
]);

export const OptionQuoteWire = Type.Composite([
  Type.Pick(QuoteWire, ['ask_exchange', 'ask_price', 'ask_size', 'bid_exchange', 'bid_price', 'bid_size', 'sequence_number', 'sip_timestamp']),
  Type.Object({ ticker: Type.String() }),
]);

/**
 * A stock trade of /stocks/dev/trades: `size` is the whole shares of the trade and `size_fraction`
 * its exact size as a decimal number (0.25 for a quarter of a share, 100.5 for a round lot and a
 * half), so a client that only knows whole shares reads `size` and one that handles fractional
 * trades reads `size_fraction`.
 */
export const DevTradeWire = Type.Composite([
  Type.Omit(TradeWire, ['decimal_size', 'sip_timestamp', 'size']),
  Type.Object({ sip_timestamp: Ns(), size: Type.Integer(), size_fraction: Type.Number(), ticker: Type.String() }),
]);

export const LastTrade = Type.Object({
  c: Type.Optional(Codes()),
  i: Type.String(),
  p: Type.Number(),
  s: Type.Number(),
  ds: Type.Optional(Type.String()),
  x: Type.Integer(),
  e: Type.Optional(Type.Integer()),
  r: Type.Optional(Type.Integer()),
  z: Type.Optional(Type.Integer()),
  T: Type.String(),
  t: Ns(),
  y: Type.Optional(Ns()),
  f: Type.Optional(Ns()),
  q: Type.Optional(Ns()),
});
export type LastTrade = Static<typeof LastTrade>;

export const LastQuote = Type.Object({
  p: Type.Number(),
  s: Type.Optional(Type.Number()),
  x: Type.Optional(Type.Integer()),
  P: Type.Number(),
  S: Type.Optional(Type.Number()),
  X: Type.Optional(Type.Integer()),
  c: Type.Optional(Codes()),
  i: Type.Optional(Codes()),
  z: Type.Optional(Type.Integer()),
  T: Type.String(),
  t: Ns(),
  y: Type.Optional(Ns()),
  f: Type.Optional(Ns()),
  q: Type.Optional(Ns()),
});
export type LastQuote = Static<typeof LastQuote>;

/** The latest quote of a currency pair as the v1 endpoints write it (time in ms). */
export const ForexLast = Type.Object({ ask: Type.Number(), bid: Type.Number(), exchange: Type.Integer(), timestamp: Type.Integer() });
export type ForexLast = Static<typeof ForexLast>;

/** The latest trade of a crypto pair as the v1 endpoint writes it (time in ms). */
export const CryptoLast = Type.Object({
  conditions: Type.Optional(Codes()),
  exchange: Type.Integer(),
  price: Type.Number(),
  size: Type.Number(),
  timestamp: Type.Integer(),
});
export type CryptoLast = Static<typeof CryptoLast>;
