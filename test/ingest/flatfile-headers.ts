// The header of each upstream flat-file layout, and a time for fixtures, for the reader tests.

export const STOCK_TRADES =
  'ticker,conditions,correction,exchange,id,participant_timestamp,price,sequence_number,sip_timestamp,size,tape,trf_id,trf_timestamp';
export const OPTION_TRADES = 'ticker,conditions,correction,exchange,participant_timestamp,price,sip_timestamp,size';
export const CRYPTO_TRADES = 'ticker,conditions,exchange,id,participant_timestamp,price,size';
export const STOCK_QUOTES =
  'ticker,ask_exchange,ask_price,ask_size,bid_exchange,bid_price,bid_size,conditions,indicators,participant_timestamp,sequence_number,sip_timestamp,tape,trf_timestamp';
export const OPTION_QUOTES = 'ticker,ask_exchange,ask_price,ask_size,bid_exchange,bid_price,bid_size,sequence_number,sip_timestamp';
export const FOREX_QUOTES = 'ticker,ask_exchange,ask_price,bid_exchange,bid_price,participant_timestamp';
export const AGGS = 'ticker,volume,open,close,high,low,window_start,transactions';
export const INDEX_AGGS = 'ticker,open,close,high,low,window_start';

/** 2024-01-01T00:00:00.123456789Z: beyond 2^53, so a double would lose the last digits. */
export const NS = 1704067200123456789n;
