// Real indices, ISO 4217 currencies and crypto asset codes the demo builds tickers from.

interface RealIndex {
  t: string;
  name: string;
  feed: string;
  since: string;
}

/** source_feed: the feed we chose per index family. `since` = index launch (approximate). */
export const REAL_INDICES: readonly RealIndex[] = [
  { t: 'I:SPX', name: "Standard & Poor's 500", feed: 'CBOE', since: '1957-03-04' },
  { t: 'I:DJI', name: 'Dow Jones Industrial Average', feed: 'CME', since: '1896-05-26' },
  { t: 'I:NDX', name: 'Nasdaq-100', feed: 'Nasdaq', since: '1985-01-31' },
  { t: 'I:COMP', name: 'NASDAQ Composite', feed: 'Nasdaq', since: '1971-02-05' },
  { t: 'I:VIX', name: 'Cboe Volatility Index', feed: 'CBOE', since: '1993-01-19' },
  { t: 'I:RUT', name: 'Russell 2000 Index', feed: 'CBOE', since: '1984-01-02' },
  { t: 'I:OEX', name: 'S&P 100 Index', feed: 'CBOE', since: '1983-03-11' },
];

export const REAL_INDEX_SYMBOLS: string[] = REAL_INDICES.map((i) => i.t);

/** ISO 4217 codes and names. EUR from its launch; the rest from 2000-01-03 (demo history start). */
export const FIAT: ReadonlyArray<readonly [code: string, name: string]> = [
  ['USD', 'United States Dollar'],
  ['EUR', 'Euro'],
  ['JPY', 'Japanese Yen'],
  ['GBP', 'British Pound'],
  ['AUD', 'Australian Dollar'],
  ['CAD', 'Canadian Dollar'],
  ['CHF', 'Swiss Franc'],
  ['NZD', 'New Zealand Dollar'],
  ['CNY', 'Chinese Yuan'],
  ['HKD', 'Hong Kong Dollar'],
  ['SGD', 'Singapore Dollar'],
  ['SEK', 'Swedish Krona'],
  ['NOK', 'Norwegian Krone'],
  ['DKK', 'Danish Krone'],
  ['MXN', 'Mexican Peso'],
  ['ZAR', 'South African Rand'],
  ['TRY', 'Turkish Lira'],
  ['INR', 'Indian Rupee'],
  ['KRW', 'South Korean Won'],
  ['BRL', 'Brazilian Real'],
  ['PLN', 'Polish Zloty'],
  ['CZK', 'Czech Koruna'],
  ['HUF', 'Hungarian Forint'],
  ['ILS', 'Israeli New Shekel'],
  ['THB', 'Thai Baht'],
  ['TWD', 'New Taiwan Dollar'],
  ['PHP', 'Philippine Peso'],
  ['IDR', 'Indonesian Rupiah'],
  ['MYR', 'Malaysian Ringgit'],
  ['SAR', 'Saudi Riyal'],
  ['AED', 'United Arab Emirates Dirham'],
  ['CLP', 'Chilean Peso'],
  ['COP', 'Colombian Peso'],
  ['RON', 'Romanian Leu'],
  ['ISK', 'Icelandic Krona'],
];
export const FIAT_NAME = new Map(FIAT);
export const FX_START = '2000-01-03';

/** FX pairs flagged as the well-known "real" majors (all pairs are real currency codes). */
export const FX_MAJOR_SYMBOLS: string[] = [
  'C:EURUSD', 'C:USDJPY', 'C:GBPUSD', 'C:AUDUSD', 'C:USDCAD', 'C:USDCHF',
  'C:NZDUSD', 'C:EURGBP', 'C:EURJPY', 'C:GBPJPY', 'C:USDMXN', 'C:EURCHF',
];

/** Crypto assets: code, name, approximate start of exchange trading (used only as valid_from). */
export const CRYPTO: ReadonlyArray<readonly [code: string, name: string, since: string]> = [
  ['BTC', 'Bitcoin', '2013-01-02'],
  ['ETH', 'Ethereum', '2015-08-07'],
  ['SOL', 'Solana', '2020-04-10'],
  ['XRP', 'XRP', '2014-01-02'],
  ['LTC', 'Litecoin', '2013-04-28'],
  ['DOGE', 'Dogecoin', '2014-01-02'],
  ['ADA', 'Cardano', '2017-10-02'],
  ['BCH', 'Bitcoin Cash', '2017-08-01'],
  ['DOT', 'Polkadot', '2020-08-19'],
  ['AVAX', 'Avalanche', '2020-09-22'],
  ['LINK', 'Chainlink', '2017-09-20'],
  ['XLM', 'Stellar Lumens', '2015-01-02'],
  ['UNI', 'Uniswap', '2020-09-17'],
  ['ATOM', 'Cosmos', '2019-03-14'],
  ['ALGO', 'Algorand', '2019-06-20'],
  ['FIL', 'Filecoin', '2020-10-15'],
  ['ETC', 'Ethereum Classic', '2016-07-25'],
  ['AAVE', 'Aave', '2020-10-02'],
  ['XTZ', 'Tezos', '2018-07-02'],
  ['SHIB', 'Shiba Inu', '2021-05-10'],
  ['NEAR', 'NEAR Protocol', '2020-10-14'],
  ['ICP', 'Internet Computer', '2021-05-10'],
  ['APT', 'Aptos', '2022-10-19'],
  ['ARB', 'Arbitrum', '2023-03-23'],
  ['OP', 'Optimism', '2022-06-01'],
  ['SUI', 'Sui', '2023-05-03'],
  ['PEPE', 'Pepe', '2023-05-05'],
  ['MKR', 'Maker', '2017-12-18'],
  ['COMP', 'Compound', '2020-06-16'],
  ['SNX', 'Synthetix', '2018-03-12'],
  ['CRV', 'Curve DAO Token', '2020-08-14'],
  ['SAND', 'The Sandbox', '2020-08-14'],
  ['MANA', 'Decentraland', '2017-09-18'],
  ['GRT', 'The Graph', '2020-12-17'],
  ['ZEC', 'Zcash', '2016-10-28'],
  ['DASH', 'Dash', '2014-02-03'],
  ['EOS', 'EOS', '2017-07-02'],
  ['BAT', 'Basic Attention Token', '2017-06-01'],
  ['TRX', 'TRON', '2017-09-13'],
  ['USDC', 'USD Coin', '2018-10-01'],
  ['USDT', 'Tether', '2015-02-25'],
  ['DAI', 'Dai', '2019-11-18'],
];
export const CRYPTO_NAME = new Map(CRYPTO.map(([c, n]) => [c, n] as const));
export const STABLECOINS = new Set(['USDC', 'USDT', 'DAI']);

export const CRYPTO_MAJOR_SYMBOLS: string[] = [
  'X:BTCUSD', 'X:ETHUSD', 'X:SOLUSD', 'X:XRPUSD', 'X:LTCUSD', 'X:DOGEUSD', 'X:ADAUSD', 'X:BCHUSD',
];
