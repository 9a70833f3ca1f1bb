import { Type, type Static } from '@sinclair/typebox';

// Wire shapes of a ticker: the list item and the overview (the item with company details).
// Services build values of these types; the routes declare them as their responses.

export const TickerItem = Type.Object({
  ticker: Type.String(),
  name: Type.String(),
  market: Type.String(),
  locale: Type.String(),
  primary_exchange: Type.Optional(Type.String()),
  type: Type.Optional(Type.String()),
  active: Type.Boolean(),
  currency_name: Type.Optional(Type.String()),
  currency_symbol: Type.Optional(Type.String()),
  base_currency_symbol: Type.Optional(Type.String()),
  base_currency_name: Type.Optional(Type.String()),
  cik: Type.Optional(Type.String()),
  composite_figi: Type.Optional(Type.String()),
  share_class_figi: Type.Optional(Type.String()),
  last_updated_utc: Type.String(),
  delisted_utc: Type.Optional(Type.String()),
  source_feed: Type.Optional(Type.String()),
});

export const TickerDetails = Type.Composite([
  TickerItem,
  Type.Object({
    description: Type.Optional(Type.String()),
    homepage_url: Type.Optional(Type.String()),
    phone_number: Type.Optional(Type.String()),
    address: Type.Optional(
      Type.Object({
        address1: Type.Optional(Type.String()),
        address2: Type.Optional(Type.String()),
        city: Type.Optional(Type.String()),
        state: Type.Optional(Type.String()),
        postal_code: Type.Optional(Type.String()),
        country: Type.Optional(Type.String()),
      }),
    ),
    branding: Type.Optional(
      Type.Object({
        logo_url: Type.Optional(Type.String()),
        icon_url: Type.Optional(Type.String()),
        accent_color: Type.Optional(Type.String()),
        light_color: Type.Optional(Type.String()),
        dark_color: Type.Optional(Type.String()),
      }),
    ),
    list_date: Type.Optional(Type.String()),
    market_cap: Type.Optional(Type.Number()),
    share_class_shares_outstanding: Type.Optional(Type.Number()),
    weighted_shares_outstanding: Type.Optional(Type.Number()),
    round_lot: Type.Optional(Type.Number()),
    sic_code: Type.Optional(Type.String()),
    sic_description: Type.Optional(Type.String()),
    ticker_root: Type.Optional(Type.String()),
    ticker_suffix: Type.Optional(Type.String()),
    total_employees: Type.Optional(Type.Number()),
  }),
]);

export type TickerItem = Static<typeof TickerItem>;
export type TickerDetails = Static<typeof TickerDetails>;

/** The keys of a ticker list item, in the order the API writes them. */
const TICKER_ITEM_KEYS = Object.keys(TickerItem.properties) as Array<keyof TickerItem>;

/**
 * A ticker version as a list item's JSON text: the TickerItem fields it has, in schema order
 * (what the schema serializer writes for it). Stored beside each ticker row when written, so a
 * list page joins texts.
 */
export function tickerItemJson(t: Partial<Record<keyof TickerItem, unknown>>): string {
  const item: Record<string, unknown> = {};
  for (const k of TICKER_ITEM_KEYS) {
    const v = t[k];
    if (v !== undefined && v !== null) item[k] = v;
  }
  return JSON.stringify(item);
}
