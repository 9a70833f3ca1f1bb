import { Type, type Static } from '@sinclair/typebox';

// Wire shapes of the daily open/close answers (key order as upstream writes them). Services build
// values of these types; the routes declare them as their responses.

/** Open/close of a stock, option or index session (the body adds `status` before these keys). */
export const OpenClose = Type.Object({
  symbol: Type.String(),
  from: Type.String(),
  open: Type.Number(),
  high: Type.Number(),
  low: Type.Number(),
  close: Type.Number(),
  volume: Type.Optional(Type.Number()),
  afterHours: Type.Optional(Type.Number()),
  preMarket: Type.Optional(Type.Number()),
  otc: Type.Optional(Type.Boolean()),
});
export type OpenClose = Static<typeof OpenClose>;

/** A trade of the crypto open/close (time in ms). */
export const CryptoTrade = Type.Object({
  c: Type.Array(Type.Integer()),
  i: Type.String(),
  p: Type.Number(),
  s: Type.Number(),
  t: Type.Integer(),
  x: Type.Integer(),
});
export type CryptoTrade = Static<typeof CryptoTrade>;

export const CryptoOpenClose = Type.Object({
  symbol: Type.String(),
  isUTC: Type.Boolean(),
  day: Type.String(),
  open: Type.Number(),
  close: Type.Number(),
  openTrades: Type.Array(CryptoTrade),
  closingTrades: Type.Array(CryptoTrade),
});
export type CryptoOpenClose = Static<typeof CryptoOpenClose>;
