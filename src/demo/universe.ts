// The demo ticker universe: real, well-known US stocks/ETFs, real indices, FX and crypto pairs
// built from real currency/asset codes, plus a deterministic synthetic long tail (invented
// issuers) so that the dataset has the size and variety of the upstream reference data.
//
// Everything here is deterministic: same input -> byte-identical output, on every platform.
//
// What is real and what is not:
// - REAL_STOCKS below: real companies/funds. Identifiers (CIK, FIGIs) are included only where
//   they were verified against public sources (upstream fixtures, SEC company_tickers.json,
//   OpenFIGI-derived mappings seen in several independent places); anything uncertain is omitted.
//   Share counts are APPROXIMATE (rounded, late-2025 magnitudes) and only meant to make market-cap
//   style computations plausible.
// - FX/crypto pairs: real ISO 4217 currency codes and real crypto asset codes; the list of
//   crosses is generated (upstream may not carry every cross).
// - Synthetic long tail: invented names, symbols, CIKs and FIGIs. CIKs are drawn from
//   9,000,000-9,999,999 (real CIKs are < 2,100,000 as of 2026, so they cannot collide). FIGIs
//   are well-formed (BBG00 + 6 chars + valid check digit) but invented: they may coincide with
//   some real FIGI somewhere in the world and must be documented as synthetic. Homepages use the
//   reserved `.example` TLD and phone numbers the fictional 555-01xx range.
//
// Symbol collision policy (documented method): a synthetic symbol (and its root) is never equal
// to any symbol in RESERVED_SYMBOLS = our real set + the ~1,100 largest SEC-registered symbols
// (SEC company_tickers.json, ordered by market value, early 2026) + popular ETFs and notable
// (including delisted) symbols + all single letters. Synthetic roots are exactly 4 letters. A
// synthetic symbol may still coincide with some small real listing outside that list; the README
// must say the long tail is synthetic.

import type { Market, TickerAddress, TickerRecord } from '../store/records.js';
import { createRng, type Rng } from './random.js';

export const DEFAULT_AS_OF = '2026-11-20';

/** valid_from used for real tickers whose listing date we do not know: "before demo history". */
const SINCE_EARLY = '1970-01-02';

// =============================================================================================
// SIC descriptions (EDGAR spelling)
// =============================================================================================

const SIC: Record<string, string> = {
  '1040': 'GOLD AND SILVER ORES',
  '1311': 'CRUDE PETROLEUM & NATURAL GAS',
  '1531': 'OPERATIVE BUILDERS',
  '2000': 'FOOD AND KINDRED PRODUCTS',
  '2080': 'BEVERAGES',
  '2834': 'PHARMACEUTICAL PREPARATIONS',
  '2836': 'BIOLOGICAL PRODUCTS, (NO DIAGNOSTIC SUBSTANCES)',
  '2840': 'SOAP, DETERGENTS, CLEANG PREPARATIONS, PERFUMES, COSMETICS',
  '2860': 'INDUSTRIAL ORGANIC CHEMICALS',
  '2911': 'PETROLEUM REFINING',
  '3021': 'RUBBER & PLASTICS FOOTWEAR',
  '3334': 'PRIMARY PRODUCTION OF ALUMINUM',
  '3531': 'CONSTRUCTION MACHINERY & EQUIP',
  '3559': 'SPECIAL INDUSTRY MACHINERY, NEC',
  '3570': 'COMPUTER & OFFICE EQUIPMENT',
  '3571': 'ELECTRONIC COMPUTERS',
  '3576': 'COMPUTER COMMUNICATIONS EQUIPMENT',
  '3663': 'RADIO & TV BROADCASTING & COMMUNICATIONS EQUIPMENT',
  '3674': 'SEMICONDUCTORS & RELATED DEVICES',
  '3690': 'MISCELLANEOUS ELECTRICAL MACHINERY, EQUIPMENT & SUPPLIES',
  '3711': 'MOTOR VEHICLES & PASSENGER CAR BODIES',
  '3714': 'MOTOR VEHICLE PARTS & ACCESSORIES',
  '3721': 'AIRCRAFT',
  '3728': 'AIRCRAFT PARTS & AUXILIARY EQUIPMENT, NEC',
  '3826': 'LABORATORY ANALYTICAL INSTRUMENTS',
  '3841': 'SURGICAL & MEDICAL INSTRUMENTS & APPARATUS',
  '4213': 'TRUCKING (NO LOCAL)',
  '4400': 'WATER TRANSPORTATION',
  '4813': 'TELEPHONE COMMUNICATIONS (NO RADIOTELEPHONE)',
  '4911': 'ELECTRIC SERVICES',
  '5211': 'RETAIL-LUMBER & OTHER BUILDING MATERIALS DEALERS',
  '5331': 'RETAIL-VARIETY STORES',
  '5651': 'RETAIL-FAMILY CLOTHING STORES',
  '5810': 'RETAIL-EATING & DRINKING PLACES',
  '5812': 'RETAIL-EATING PLACES',
  '5961': 'RETAIL-CATALOG & MAIL-ORDER HOUSES',
  '6021': 'NATIONAL COMMERCIAL BANKS',
  '6022': 'STATE COMMERCIAL BANKS',
  '6211': 'SECURITY BROKERS, DEALERS & FLOTATION COMPANIES',
  '6282': 'INVESTMENT ADVICE',
  '6324': 'HOSPITAL & MEDICAL SERVICE PLANS',
  '6331': 'FIRE, MARINE & CASUALTY INSURANCE',
  '6770': 'BLANK CHECKS',
  '6798': 'REAL ESTATE INVESTMENT TRUSTS',
  '7370': 'SERVICES-COMPUTER PROGRAMMING, DATA PROCESSING, ETC.',
  '7372': 'SERVICES-PREPACKAGED SOFTWARE',
  '7389': 'SERVICES-BUSINESS SERVICES, NEC',
  '7841': 'SERVICES-VIDEO TAPE RENTAL',
  '8731': 'SERVICES-COMMERCIAL PHYSICAL & BIOLOGICAL RESEARCH',
};

// =============================================================================================
// Real stocks and ETFs
// =============================================================================================

interface RealStock {
  t: string;
  name: string;
  ex: 'XNAS' | 'XNYS' | 'ARCX' | 'BATS';
  type: 'CS' | 'ETF' | 'ADRC';
  cik?: string;
  /** First listing date, only where known. */
  list?: string;
  /**
   * Date from which this version (symbol + name + venue) is known to apply, when later than the
   * listing or when the listing date is unknown: a safe lower bound (we'd rather hide a few early
   * months than claim the symbol existed before it did). Without list/since: SINCE_EARLY.
   */
  since?: string;
  figi?: string;
  scfigi?: string;
  sic?: string;
  desc: string;
  url?: string;
  addr?: readonly [address1: string, city: string, state: string, postal: string];
  phone?: string;
  /** share_class_shares_outstanding — APPROXIMATE. */
  so?: number;
  /** weighted_shares_outstanding — APPROXIMATE. */
  wso?: number;
  /** Earlier versions (point-in-time history), oldest first; the record above is the current one. */
  history?: ReadonlyArray<{ until: string; name?: string; ex?: RealStock['ex'] }>;
}

const B = 1_000_000_000;
const M = 1_000_000;

const REAL_STOCKS: readonly RealStock[] = [
  // ---- Nasdaq-listed common stock -------------------------------------------------------------
  { t: 'AAPL', name: 'Apple Inc.', ex: 'XNAS', type: 'CS', cik: '0000320193', list: '1980-12-12', figi: 'BBG000B9XRY4', scfigi: 'BBG001S5N8V8', sic: '3571',
    desc: 'Apple designs, manufactures and markets smartphones, personal computers, tablets, wearables and accessories, and sells related software and services.',
    url: 'https://www.apple.com', addr: ['One Apple Park Way', 'Cupertino', 'CA', '95014'], phone: '(408) 996-1010', so: 14.84 * B, wso: 14.84 * B },
  { t: 'MSFT', name: 'Microsoft Corporation', ex: 'XNAS', type: 'CS', cik: '0000789019', list: '1986-03-13', figi: 'BBG000BPH459', scfigi: 'BBG001S5TD05', sic: '7372',
    desc: 'Microsoft develops and licenses software, cloud services, devices and gaming products, including Windows, Microsoft 365, Azure and Xbox.',
    url: 'https://www.microsoft.com', addr: ['One Microsoft Way', 'Redmond', 'WA', '98052'], phone: '(425) 882-8080', so: 7.43 * B, wso: 7.43 * B },
  { t: 'AMZN', name: 'Amazon.com, Inc.', ex: 'XNAS', type: 'CS', cik: '0001018724', list: '1997-05-15', figi: 'BBG000BVPV84', scfigi: 'BBG001S5PQL7', sic: '5961',
    desc: 'Amazon operates online retail stores and marketplaces, provides cloud computing through Amazon Web Services, and offers subscription, advertising and logistics services.',
    url: 'https://www.amazon.com', addr: ['410 Terry Avenue North', 'Seattle', 'WA', '98109'], phone: '(206) 266-1000', so: 10.7 * B, wso: 10.7 * B },
  { t: 'GOOGL', name: 'Alphabet Inc. Class A', ex: 'XNAS', type: 'CS', cik: '0001652044', list: '2004-08-19', since: '2014-04-03', figi: 'BBG009S39JX6', scfigi: 'BBG009S39JY5', sic: '7370',
    desc: 'Alphabet is the holding company of Google, whose businesses include Search, YouTube, Android, Google Cloud and advertising, alongside other technology ventures.',
    url: 'https://abc.xyz', addr: ['1600 Amphitheatre Parkway', 'Mountain View', 'CA', '94043'], phone: '(650) 253-0000', so: 5.8 * B, wso: 12.1 * B },
  { t: 'GOOG', name: 'Alphabet Inc. Class C', ex: 'XNAS', type: 'CS', cik: '0001652044', list: '2014-04-03', figi: 'BBG009S3NB30', sic: '7370',
    desc: 'Alphabet Class C capital stock (no voting rights). Alphabet is the holding company of Google, whose businesses include Search, YouTube, Android and Google Cloud.',
    url: 'https://abc.xyz', addr: ['1600 Amphitheatre Parkway', 'Mountain View', 'CA', '94043'], phone: '(650) 253-0000', so: 5.45 * B, wso: 12.1 * B },
  { t: 'META', name: 'Meta Platforms, Inc. Class A', ex: 'XNAS', type: 'CS', cik: '0001326801', list: '2012-05-18', since: '2022-06-09', figi: 'BBG000MM2P62', sic: '7370',
    desc: 'Meta Platforms operates Facebook, Instagram, WhatsApp and Messenger and develops virtual- and augmented-reality devices; most revenue comes from advertising.',
    url: 'https://about.meta.com', addr: ['1 Meta Way', 'Menlo Park', 'CA', '94025'], phone: '(650) 543-4800', so: 2.17 * B, wso: 2.52 * B },
  { t: 'NVDA', name: 'NVIDIA Corporation', ex: 'XNAS', type: 'CS', cik: '0001045810', list: '1999-01-22', figi: 'BBG000BBJQV0', scfigi: 'BBG001S5TZJ6', sic: '3674',
    desc: 'NVIDIA designs graphics processors, data-center accelerators, networking products and the software platforms used for AI, gaming and visualization.',
    url: 'https://www.nvidia.com', addr: ['2788 San Tomas Expressway', 'Santa Clara', 'CA', '95051'], phone: '(408) 486-2000', so: 24.3 * B, wso: 24.3 * B },
  { t: 'TSLA', name: 'Tesla, Inc.', ex: 'XNAS', type: 'CS', cik: '0001318605', list: '2010-06-29', figi: 'BBG000N9MNX3', scfigi: 'BBG001SQKGD7', sic: '3711',
    desc: 'Tesla designs, manufactures and sells electric vehicles and energy generation and storage systems.',
    url: 'https://www.tesla.com', addr: ['1 Tesla Road', 'Austin', 'TX', '78725'], phone: '(512) 516-8177', so: 3.32 * B, wso: 3.32 * B },
  { t: 'AVGO', name: 'Broadcom Inc.', ex: 'XNAS', type: 'CS', cik: '0001730168', list: '2009-08-06', figi: 'BBG00KHY5S69', sic: '3674',
    desc: 'Broadcom designs semiconductors for networking, broadband, storage and wireless markets and sells infrastructure software.',
    url: 'https://www.broadcom.com', addr: ['3421 Hillview Avenue', 'Palo Alto', 'CA', '94304'], phone: '(650) 427-6000', so: 4.72 * B, wso: 4.72 * B },
  { t: 'COST', name: 'Costco Wholesale Corporation', ex: 'XNAS', type: 'CS', since: '1994-01-03', cik: '0000909832', figi: 'BBG000F6H8W8', sic: '5331',
    desc: 'Costco operates membership warehouse clubs selling groceries, general merchandise and services.',
    url: 'https://www.costco.com', addr: ['999 Lake Drive', 'Issaquah', 'WA', '98027'], phone: '(425) 313-8100', so: 443 * M, wso: 443 * M },
  { t: 'NFLX', name: 'Netflix, Inc.', ex: 'XNAS', type: 'CS', cik: '0001065280', list: '2002-05-23', figi: 'BBG000CL9VN6', sic: '7841',
    desc: 'Netflix operates a subscription streaming service offering series, films and games.',
    url: 'https://www.netflix.com', addr: ['121 Albright Way', 'Los Gatos', 'CA', '95032'], phone: '(408) 540-3700', so: 4.23 * B, wso: 4.23 * B },
  { t: 'AMD', name: 'Advanced Micro Devices, Inc.', ex: 'XNAS', type: 'CS', cik: '0000002488', figi: 'BBG000BBQCY0', sic: '3674',
    desc: 'AMD designs CPUs, GPUs, adaptive SoCs and data-center accelerators for PCs, servers, gaming consoles and embedded systems.',
    url: 'https://www.amd.com', addr: ['2485 Augustine Drive', 'Santa Clara', 'CA', '95054'], phone: '(408) 749-4000', so: 1.62 * B, wso: 1.62 * B },
  { t: 'INTC', name: 'Intel Corporation', ex: 'XNAS', type: 'CS', cik: '0000050863', list: '1971-10-13', figi: 'BBG000C0G1D1', sic: '3674',
    desc: 'Intel designs and manufactures microprocessors, chipsets and related platforms and offers foundry services.',
    url: 'https://www.intel.com', addr: ['2200 Mission College Boulevard', 'Santa Clara', 'CA', '95054'], phone: '(408) 765-8080', so: 4.37 * B, wso: 4.37 * B },
  { t: 'CSCO', name: 'Cisco Systems, Inc.', ex: 'XNAS', type: 'CS', cik: '0000858877', list: '1990-02-16', figi: 'BBG000C3J3C9', sic: '3576',
    desc: 'Cisco sells networking hardware, security and collaboration products and related software and services.',
    url: 'https://www.cisco.com', addr: ['170 West Tasman Drive', 'San Jose', 'CA', '95134'], phone: '(408) 526-4000', so: 3.95 * B, wso: 3.95 * B },
  { t: 'ADBE', name: 'Adobe Inc.', ex: 'XNAS', type: 'CS', since: '1986-09-02', cik: '0000796343', figi: 'BBG000BB5006', sic: '7372',
    desc: 'Adobe provides creative, document and digital-experience software, including Creative Cloud, Acrobat and Experience Cloud.',
    url: 'https://www.adobe.com', addr: ['345 Park Avenue', 'San Jose', 'CA', '95110'], phone: '(408) 536-6000', so: 420 * M, wso: 420 * M },
  { t: 'PEP', name: 'PepsiCo, Inc.', ex: 'XNAS', type: 'CS', cik: '0000077476', figi: 'BBG000DH7JK6', sic: '2080',
    desc: 'PepsiCo makes and sells beverages and convenient foods, with brands such as Pepsi, Gatorade, Lay\'s, Doritos and Quaker.',
    url: 'https://www.pepsico.com', addr: ['700 Anderson Hill Road', 'Purchase', 'NY', '10577'], phone: '(914) 253-2000', so: 1.37 * B, wso: 1.37 * B },
  { t: 'QCOM', name: 'QUALCOMM Incorporated', ex: 'XNAS', type: 'CS', cik: '0000804328', list: '1991-12-13', figi: 'BBG000CGC1X8', sic: '3663',
    desc: 'Qualcomm develops wireless technologies and sells chipsets for mobile, automotive and IoT devices, and licenses its patent portfolio.',
    url: 'https://www.qualcomm.com', addr: ['5775 Morehouse Drive', 'San Diego', 'CA', '92121'], phone: '(858) 587-1121', so: 1.08 * B, wso: 1.08 * B },
  { t: 'TXN', name: 'Texas Instruments Incorporated', ex: 'XNAS', type: 'CS', cik: '0000097476', figi: 'BBG000BVV7G1', sic: '3674',
    desc: 'Texas Instruments designs and manufactures analog and embedded-processing semiconductors.',
    url: 'https://www.ti.com', addr: ['12500 TI Boulevard', 'Dallas', 'TX', '75243'], phone: '(214) 479-3773', so: 908 * M, wso: 908 * M },
  { t: 'SBUX', name: 'Starbucks Corporation', ex: 'XNAS', type: 'CS', cik: '0000829224', list: '1992-06-26', sic: '5810',
    desc: 'Starbucks roasts and sells specialty coffee and operates and licenses coffeehouses worldwide.',
    url: 'https://www.starbucks.com', addr: ['2401 Utah Avenue South', 'Seattle', 'WA', '98134'], phone: '(206) 447-1575', so: 1.14 * B, wso: 1.14 * B },
  { t: 'PLTR', name: 'Palantir Technologies Inc.', ex: 'XNAS', type: 'CS', cik: '0001321655', list: '2020-09-30', sic: '7372',
    desc: 'Palantir builds software platforms for data integration and analytics used by government agencies and commercial enterprises.',
    url: 'https://www.palantir.com', addr: ['1200 17th Street, Floor 15', 'Denver', 'CO', '80202'], so: 2.37 * B, wso: 2.37 * B,
    // Moved its listing from NYSE to Nasdaq in November 2024.
    history: [{ until: '2024-11-26', ex: 'XNYS' }] },
  { t: 'PYPL', name: 'PayPal Holdings, Inc.', ex: 'XNAS', type: 'CS', cik: '0001633917', list: '2015-07-20',
    desc: 'PayPal operates digital payment platforms, including PayPal, Venmo and Braintree, for consumers and merchants.',
    url: 'https://www.paypal.com', addr: ['2211 North First Street', 'San Jose', 'CA', '95131'], phone: '(408) 967-1000', so: 960 * M, wso: 960 * M },
  { t: 'COIN', name: 'Coinbase Global, Inc. Class A', ex: 'XNAS', type: 'CS', cik: '0001679788', list: '2021-04-14',
    desc: 'Coinbase operates a cryptocurrency exchange and custody platform for retail and institutional customers.',
    url: 'https://www.coinbase.com', so: 220 * M, wso: 255 * M },
  { t: 'WMT', name: 'Walmart Inc.', ex: 'XNAS', type: 'CS', cik: '0000104169', list: '1972-08-25', figi: 'BBG000BWXBC2', scfigi: 'BBG001S5XH92', sic: '5331',
    desc: 'Walmart operates supercenters, discount stores, Sam\'s Club warehouse clubs and e-commerce sites in the US and internationally.',
    url: 'https://www.walmart.com', addr: ['702 Southwest 8th Street', 'Bentonville', 'AR', '72716'], phone: '(479) 273-4000', so: 7.97 * B, wso: 7.97 * B,
    // Renamed from Wal-Mart Stores, Inc. in February 2018; moved its listing from NYSE to Nasdaq in December 2025.
    history: [
      { until: '2018-02-01', name: 'Wal-Mart Stores, Inc.', ex: 'XNYS' },
      { until: '2025-12-09', ex: 'XNYS' },
    ] },
  // ---- NYSE-listed common stock ---------------------------------------------------------------
  { t: 'BRK.A', name: 'Berkshire Hathaway Inc. Class A', ex: 'XNYS', type: 'CS', cik: '0001067983', list: '1988-11-29', sic: '6331',
    desc: 'Berkshire Hathaway is a holding company whose subsidiaries engage in insurance, freight rail, utilities and energy, manufacturing, services and retailing.',
    url: 'https://www.berkshirehathaway.com', addr: ['3555 Farnam Street', 'Omaha', 'NE', '68131'], phone: '(402) 346-1400', so: 540_000, wso: 1_440_000 },
  { t: 'BRK.B', name: 'Berkshire Hathaway Inc. Class B', ex: 'XNYS', type: 'CS', cik: '0001067983', list: '1996-05-09', figi: 'BBG000DWG505', sic: '6331',
    desc: 'Berkshire Hathaway Class B common stock. Berkshire is a holding company with insurance, rail, utility, manufacturing and retail subsidiaries.',
    url: 'https://www.berkshirehathaway.com', addr: ['3555 Farnam Street', 'Omaha', 'NE', '68131'], phone: '(402) 346-1400', so: 1.38 * B, wso: 2.16 * B },
  { t: 'JPM', name: 'JPMorgan Chase & Co.', ex: 'XNYS', type: 'CS', cik: '0000019617', since: '2001-01-02', figi: 'BBG000DMBXR2', sic: '6021',
    desc: 'JPMorgan Chase is a financial services firm providing consumer and community banking, corporate and investment banking, commercial banking and asset and wealth management.',
    url: 'https://www.jpmorganchase.com', addr: ['270 Park Avenue', 'New York', 'NY', '10017'], phone: '(212) 270-6000', so: 2.75 * B, wso: 2.75 * B },
  { t: 'V', name: 'Visa Inc.', ex: 'XNYS', type: 'CS', cik: '0001403161', list: '2008-03-19', figi: 'BBG000PSKYX7', sic: '7389',
    desc: 'Visa operates a global electronic payments network connecting consumers, merchants, financial institutions and governments.',
    url: 'https://www.visa.com', phone: '(650) 432-3200', so: 1.7 * B, wso: 1.95 * B },
  { t: 'MA', name: 'Mastercard Incorporated', ex: 'XNYS', type: 'CS', cik: '0001141391', list: '2006-05-25', figi: 'BBG000F1ZSQ2', sic: '7389',
    desc: 'Mastercard operates a global payments network and provides processing, cybersecurity and data services.',
    url: 'https://www.mastercard.com', addr: ['2000 Purchase Street', 'Purchase', 'NY', '10577'], phone: '(914) 249-2000', so: 904 * M, wso: 910 * M },
  { t: 'JNJ', name: 'Johnson & Johnson', ex: 'XNYS', type: 'CS', cik: '0000200406', figi: 'BBG000BMHYD1', sic: '2834',
    desc: 'Johnson & Johnson researches, develops and sells pharmaceuticals and medical technology products.',
    url: 'https://www.jnj.com', addr: ['One Johnson & Johnson Plaza', 'New Brunswick', 'NJ', '08933'], phone: '(732) 524-0400', so: 2.41 * B, wso: 2.41 * B },
  { t: 'PG', name: 'The Procter & Gamble Company', ex: 'XNYS', type: 'CS', cik: '0000080424', figi: 'BBG000BR2TH3', sic: '2840',
    desc: 'Procter & Gamble makes branded consumer packaged goods in fabric, home, baby, feminine, family, beauty, grooming and health care categories.',
    url: 'https://us.pg.com', addr: ['One Procter & Gamble Plaza', 'Cincinnati', 'OH', '45202'], phone: '(513) 983-1100', so: 2.34 * B, wso: 2.34 * B },
  { t: 'XOM', name: 'Exxon Mobil Corporation', ex: 'XNYS', type: 'CS', cik: '0000034088', since: '1999-12-01', figi: 'BBG000GZQ728', scfigi: 'BBG001S69V32', sic: '2911',
    desc: 'ExxonMobil explores for and produces crude oil and natural gas and manufactures and markets fuels, lubricants and chemicals.',
    url: 'https://corporate.exxonmobil.com', addr: ['22777 Springwoods Village Parkway', 'Spring', 'TX', '77389'], phone: '(972) 940-6000', so: 4.26 * B, wso: 4.26 * B },
  { t: 'CVX', name: 'Chevron Corporation', ex: 'XNYS', type: 'CS', since: '2005-05-09', cik: '0000093410', figi: 'BBG000K4ND22', sic: '2911',
    desc: 'Chevron is an integrated energy company engaged in oil and gas exploration and production, refining, marketing and chemicals.',
    url: 'https://www.chevron.com', so: 2.0 * B, wso: 2.0 * B },
  { t: 'UNH', name: 'UnitedHealth Group Incorporated', ex: 'XNYS', type: 'CS', since: '1998-03-02', cik: '0000731766', figi: 'BBG000CH5208', sic: '6324',
    desc: 'UnitedHealth Group provides health insurance through UnitedHealthcare and health services through Optum.',
    url: 'https://www.unitedhealthgroup.com', addr: ['9900 Bren Road East', 'Minnetonka', 'MN', '55343'], phone: '(952) 936-1300', so: 906 * M, wso: 906 * M },
  { t: 'HD', name: 'The Home Depot, Inc.', ex: 'XNYS', type: 'CS', since: '1981-10-01', cik: '0000354950', figi: 'BBG000BKZB36', sic: '5211',
    desc: 'The Home Depot operates home improvement retail stores selling building materials, home improvement products and lawn and garden supplies.',
    url: 'https://www.homedepot.com', addr: ['2455 Paces Ferry Road', 'Atlanta', 'GA', '30339'], phone: '(770) 433-8211', so: 995 * M, wso: 995 * M },
  { t: 'KO', name: 'The Coca-Cola Company', ex: 'XNYS', type: 'CS', cik: '0000021344', figi: 'BBG000BMX289', sic: '2080',
    desc: 'Coca-Cola manufactures and markets nonalcoholic beverage concentrates, syrups and finished beverages.',
    url: 'https://www.coca-colacompany.com', addr: ['One Coca-Cola Plaza', 'Atlanta', 'GA', '30313'], phone: '(404) 676-2121', so: 4.3 * B, wso: 4.3 * B },
  { t: 'PFE', name: 'Pfizer Inc.', ex: 'XNYS', type: 'CS', cik: '0000078003', figi: 'BBG000BR2B91', sic: '2834',
    desc: 'Pfizer discovers, develops, manufactures and sells medicines and vaccines.',
    url: 'https://www.pfizer.com', addr: ['66 Hudson Boulevard East', 'New York', 'NY', '10001'], phone: '(212) 733-2323', so: 5.69 * B, wso: 5.69 * B },
  { t: 'MRK', name: 'Merck & Co., Inc.', ex: 'XNYS', type: 'CS', since: '2009-11-04', cik: '0000310158', sic: '2834',
    desc: 'Merck develops and sells prescription medicines, vaccines, biologic therapies and animal health products.',
    url: 'https://www.merck.com', addr: ['126 East Lincoln Avenue', 'Rahway', 'NJ', '07065'], phone: '(908) 740-4000', so: 2.5 * B, wso: 2.5 * B },
  { t: 'LLY', name: 'Eli Lilly and Company', ex: 'XNYS', type: 'CS', cik: '0000059478', figi: 'BBG000BNBDC2', sic: '2834',
    desc: 'Eli Lilly discovers, develops and markets human pharmaceuticals in areas including diabetes, obesity, oncology, immunology and neuroscience.',
    url: 'https://www.lilly.com', addr: ['Lilly Corporate Center', 'Indianapolis', 'IN', '46285'], phone: '(317) 276-2000', so: 897 * M, wso: 897 * M },
  { t: 'ABBV', name: 'AbbVie Inc.', ex: 'XNYS', type: 'CS', cik: '0001551152', list: '2013-01-02', sic: '2834',
    desc: 'AbbVie researches, develops and sells medicines in immunology, oncology, neuroscience and aesthetics.',
    url: 'https://www.abbvie.com', addr: ['1 North Waukegan Road', 'North Chicago', 'IL', '60064'], phone: '(847) 932-7900', so: 1.77 * B, wso: 1.77 * B },
  { t: 'BAC', name: 'Bank of America Corporation', ex: 'XNYS', type: 'CS', since: '1998-10-01', cik: '0000070858', figi: 'BBG000BCTLF6', sic: '6021',
    desc: 'Bank of America provides consumer banking, wealth management, corporate and investment banking and markets services.',
    url: 'https://www.bankofamerica.com', addr: ['100 North Tryon Street', 'Charlotte', 'NC', '28255'], phone: '(704) 386-5681', so: 7.4 * B, wso: 7.4 * B },
  { t: 'WFC', name: 'Wells Fargo & Company', ex: 'XNYS', type: 'CS', since: '1998-11-02', cik: '0000072971', figi: 'BBG000BWQFY7', sic: '6021',
    desc: 'Wells Fargo provides banking, investment, mortgage and consumer and commercial finance products and services.',
    url: 'https://www.wellsfargo.com', addr: ['420 Montgomery Street', 'San Francisco', 'CA', '94104'], phone: '(866) 249-3302', so: 3.2 * B, wso: 3.2 * B },
  { t: 'C', name: 'Citigroup Inc.', ex: 'XNYS', type: 'CS', since: '1998-11-02', cik: '0000831001', sic: '6021',
    desc: 'Citigroup is a global bank offering services, markets, banking, wealth management and US personal banking.',
    url: 'https://www.citigroup.com', addr: ['388 Greenwich Street', 'New York', 'NY', '10013'], phone: '(212) 559-1000', so: 1.84 * B, wso: 1.84 * B },
  { t: 'GS', name: 'The Goldman Sachs Group, Inc.', ex: 'XNYS', type: 'CS', cik: '0000886982', list: '1999-05-04', figi: 'BBG000C6CFJ5', sic: '6211',
    desc: 'Goldman Sachs provides investment banking, securities, investment management and consumer banking services.',
    url: 'https://www.goldmansachs.com', addr: ['200 West Street', 'New York', 'NY', '10282'], phone: '(212) 902-1000', so: 306 * M, wso: 306 * M },
  { t: 'MS', name: 'Morgan Stanley', ex: 'XNYS', type: 'CS', since: '2002-01-02', cik: '0000895421', figi: 'BBG000BLZRJ2', sic: '6211',
    desc: 'Morgan Stanley provides institutional securities, wealth management and investment management services.',
    url: 'https://www.morganstanley.com', addr: ['1585 Broadway', 'New York', 'NY', '10036'], phone: '(212) 761-4000', so: 1.6 * B, wso: 1.6 * B },
  { t: 'DIS', name: 'The Walt Disney Company', ex: 'XNYS', type: 'CS', since: '1986-02-06', cik: '0001744489', figi: 'BBG000BH4R78',
    desc: 'Disney is an entertainment company operating film and television studios, streaming services, cable networks, theme parks and consumer products businesses.',
    url: 'https://thewaltdisneycompany.com', addr: ['500 South Buena Vista Street', 'Burbank', 'CA', '91521'], phone: '(818) 560-1000', so: 1.8 * B, wso: 1.8 * B },
  { t: 'MCD', name: 'McDonald\'s Corporation', ex: 'XNYS', type: 'CS', cik: '0000063908', figi: 'BBG000BNSZP1', sic: '5812',
    desc: 'McDonald\'s operates and franchises quick-service restaurants worldwide.',
    url: 'https://www.mcdonalds.com', addr: ['110 North Carpenter Street', 'Chicago', 'IL', '60607'], phone: '(630) 623-3000', so: 714 * M, wso: 714 * M },
  { t: 'NKE', name: 'NIKE, Inc. Class B', ex: 'XNYS', type: 'CS', cik: '0000320187', list: '1980-12-02', figi: 'BBG000C5HS04', sic: '3021',
    desc: 'Nike designs, markets and sells athletic footwear, apparel, equipment and accessories.',
    url: 'https://www.nike.com', addr: ['One Bowerman Drive', 'Beaverton', 'OR', '97005'], phone: '(503) 671-6453', so: 1.18 * B, wso: 1.48 * B },
  { t: 'BA', name: 'The Boeing Company', ex: 'XNYS', type: 'CS', cik: '0000012927', sic: '3721',
    desc: 'Boeing designs and manufactures commercial airplanes, defense and space systems and provides related services.',
    url: 'https://www.boeing.com', addr: ['929 Long Bridge Drive', 'Arlington', 'VA', '22202'], phone: '(703) 465-3500', so: 756 * M, wso: 756 * M },
  { t: 'CAT', name: 'Caterpillar Inc.', ex: 'XNYS', type: 'CS', cik: '0000018230', sic: '3531',
    desc: 'Caterpillar manufactures construction and mining equipment, engines, turbines and diesel-electric locomotives.',
    url: 'https://www.caterpillar.com', addr: ['5205 N. O\'Connor Boulevard', 'Irving', 'TX', '75039'], phone: '(972) 891-7700', so: 468 * M, wso: 468 * M },
  { t: 'IBM', name: 'International Business Machines Corporation', ex: 'XNYS', type: 'CS', cik: '0000051143', figi: 'BBG000BLNNH6', sic: '3570',
    desc: 'IBM provides hybrid-cloud software, consulting and infrastructure, including mainframe systems.',
    url: 'https://www.ibm.com', addr: ['One New Orchard Road', 'Armonk', 'NY', '10504'], phone: '(914) 499-1900', so: 932 * M, wso: 932 * M },
  { t: 'T', name: 'AT&T Inc.', ex: 'XNYS', type: 'CS', since: '2005-12-01', cik: '0000732717', figi: 'BBG000BSJK37', sic: '4813',
    desc: 'AT&T provides wireless and wireline telecommunications and broadband services.',
    url: 'https://www.att.com', addr: ['208 South Akard Street', 'Dallas', 'TX', '75202'], phone: '(210) 821-4105', so: 7.15 * B, wso: 7.15 * B },
  { t: 'VZ', name: 'Verizon Communications Inc.', ex: 'XNYS', type: 'CS', since: '2000-07-03', cik: '0000732712', figi: 'BBG000HS77T5', sic: '4813',
    desc: 'Verizon provides wireless, broadband and network services to consumers, businesses and governments.',
    url: 'https://www.verizon.com', addr: ['1095 Avenue of the Americas', 'New York', 'NY', '10036'], phone: '(212) 395-1000', so: 4.22 * B, wso: 4.22 * B },
  { t: 'ORCL', name: 'Oracle Corporation', ex: 'XNYS', type: 'CS', since: '2013-07-15', cik: '0001341439', figi: 'BBG000BQLTW7', sic: '7372',
    desc: 'Oracle provides database and enterprise software, cloud infrastructure and applications, and hardware.',
    url: 'https://www.oracle.com', addr: ['2300 Oracle Way', 'Austin', 'TX', '78741'], phone: '(737) 867-1000', so: 2.84 * B, wso: 2.84 * B },
  { t: 'CRM', name: 'Salesforce, Inc.', ex: 'XNYS', type: 'CS', cik: '0001108524', list: '2004-06-23', sic: '7372',
    desc: 'Salesforce provides cloud-based customer relationship management, analytics and collaboration software.',
    url: 'https://www.salesforce.com', addr: ['415 Mission Street, 3rd Floor', 'San Francisco', 'CA', '94105'], phone: '(415) 901-7000', so: 955 * M, wso: 955 * M },
  { t: 'GM', name: 'General Motors Company', ex: 'XNYS', type: 'CS', cik: '0001467858', list: '2010-11-18', sic: '3711',
    desc: 'General Motors designs, builds and sells cars, trucks, crossovers and automobile parts and provides automotive financing.',
    url: 'https://www.gm.com', addr: ['300 Renaissance Center', 'Detroit', 'MI', '48265'], phone: '(313) 667-1500', so: 950 * M, wso: 950 * M },
  { t: 'F', name: 'Ford Motor Company', ex: 'XNYS', type: 'CS', cik: '0000037996', sic: '3711',
    desc: 'Ford designs, manufactures, markets and services Ford and Lincoln vehicles and provides vehicle financing.',
    url: 'https://www.ford.com', addr: ['One American Road', 'Dearborn', 'MI', '48126'], phone: '(313) 322-3000', so: 3.98 * B, wso: 3.98 * B },
  { t: 'UBER', name: 'Uber Technologies, Inc.', ex: 'XNYS', type: 'CS', cik: '0001543151', list: '2019-05-10',
    desc: 'Uber operates technology platforms for ride-hailing, food and grocery delivery and freight.',
    url: 'https://www.uber.com', addr: ['1725 3rd Street', 'San Francisco', 'CA', '94158'], phone: '(415) 612-8582', so: 2.09 * B, wso: 2.09 * B },
  { t: 'A', name: 'Agilent Technologies Inc.', ex: 'XNYS', type: 'CS', cik: '0001090872', list: '1999-11-18', figi: 'BBG000C2V3D6', scfigi: 'BBG001SCTQY4', sic: '3826',
    desc: 'Agilent provides laboratory instruments, software, consumables and services for life sciences, diagnostics and applied chemical markets.',
    url: 'https://www.agilent.com', addr: ['5301 Stevens Creek Boulevard', 'Santa Clara', 'CA', '95051'], phone: '(800) 227-9770', so: 284 * M, wso: 284 * M },
  { t: 'AA', name: 'Alcoa Corporation', ex: 'XNYS', type: 'CS', cik: '0001675149', list: '2016-11-01', figi: 'BBG00B3T3HD3', scfigi: 'BBG00B3T3HF1', sic: '3334',
    desc: 'Alcoa mines bauxite, refines alumina and produces aluminum products.',
    url: 'https://www.alcoa.com', addr: ['201 Isabella Street, Suite 500', 'Pittsburgh', 'PA', '15212'], phone: '(412) 315-2900', so: 259 * M, wso: 259 * M },
  // ---- ADRs -----------------------------------------------------------------------------------
  { t: 'BABA', name: 'Alibaba Group Holding Limited American Depositary Shares', ex: 'XNYS', type: 'ADRC', cik: '0001577552', list: '2014-09-19',
    desc: 'Alibaba operates e-commerce marketplaces, cloud computing and digital media businesses, primarily in China. Each ADS represents eight ordinary shares.',
    url: 'https://www.alibabagroup.com' },
  { t: 'TM', name: 'Toyota Motor Corporation American Depositary Shares', ex: 'XNYS', type: 'ADRC', cik: '0001094517',
    desc: 'Toyota designs, manufactures and sells passenger vehicles, trucks and related parts and provides financial services.',
    url: 'https://global.toyota' },
  // ---- ETFs -----------------------------------------------------------------------------------
  { t: 'SPY', name: 'SPDR S&P 500 ETF Trust', ex: 'ARCX', type: 'ETF', cik: '0000884394', list: '1993-01-29', figi: 'BBG000BDTBL9',
    desc: 'Unit investment trust that seeks to track the S&P 500 Index.', url: 'https://www.ssga.com' },
  { t: 'QQQ', name: 'Invesco QQQ Trust, Series 1', ex: 'XNAS', type: 'ETF', cik: '0001067839', list: '1999-03-10', figi: 'BBG000BSWKH7',
    desc: 'Unit investment trust that seeks to track the Nasdaq-100 Index.', url: 'https://www.invesco.com' },
  { t: 'DIA', name: 'SPDR Dow Jones Industrial Average ETF Trust', ex: 'ARCX', type: 'ETF', cik: '0001041130', list: '1998-01-20',
    desc: 'Unit investment trust that seeks to track the Dow Jones Industrial Average.', url: 'https://www.ssga.com' },
  { t: 'IWM', name: 'iShares Russell 2000 ETF', ex: 'ARCX', type: 'ETF', since: '2000-06-01', cik: '0001100663',
    desc: 'Exchange-traded fund that seeks to track the Russell 2000 Index of US small-capitalization stocks.', url: 'https://www.ishares.com' },
  { t: 'IVV', name: 'iShares Core S&P 500 ETF', ex: 'ARCX', type: 'ETF', since: '2000-06-01', cik: '0001100663',
    desc: 'Exchange-traded fund that seeks to track the S&P 500 Index.', url: 'https://www.ishares.com' },
  { t: 'EFA', name: 'iShares MSCI EAFE ETF', ex: 'ARCX', type: 'ETF', since: '2001-09-04', cik: '0001100663',
    desc: 'Exchange-traded fund that seeks to track the MSCI EAFE Index of developed-market stocks outside North America.', url: 'https://www.ishares.com' },
  { t: 'EEM', name: 'iShares MSCI Emerging Markets ETF', ex: 'ARCX', type: 'ETF', since: '2003-05-01',
    desc: 'Exchange-traded fund that seeks to track the MSCI Emerging Markets Index.', url: 'https://www.ishares.com' },
  { t: 'TLT', name: 'iShares 20+ Year Treasury Bond ETF', ex: 'XNAS', type: 'ETF', since: '2002-08-01', cik: '0001100663',
    desc: 'Exchange-traded fund that seeks to track an index of US Treasury bonds with remaining maturities greater than twenty years.', url: 'https://www.ishares.com' },
  { t: 'LQD', name: 'iShares iBoxx $ Investment Grade Corporate Bond ETF', ex: 'ARCX', type: 'ETF', since: '2002-08-01', cik: '0001100663',
    desc: 'Exchange-traded fund that seeks to track an index of US dollar-denominated investment-grade corporate bonds.', url: 'https://www.ishares.com' },
  { t: 'HYG', name: 'iShares iBoxx $ High Yield Corporate Bond ETF', ex: 'ARCX', type: 'ETF', since: '2007-05-01', cik: '0001100663',
    desc: 'Exchange-traded fund that seeks to track an index of US dollar-denominated high-yield corporate bonds.', url: 'https://www.ishares.com' },
  { t: 'VTI', name: 'Vanguard Total Stock Market ETF', ex: 'ARCX', type: 'ETF', since: '2001-06-01', cik: '0000036405',
    desc: 'Exchange-traded fund that seeks to track the performance of the entire US stock market.', url: 'https://investor.vanguard.com' },
  { t: 'VOO', name: 'Vanguard S&P 500 ETF', ex: 'ARCX', type: 'ETF', since: '2010-10-01', cik: '0000036405',
    desc: 'Exchange-traded fund that seeks to track the S&P 500 Index.', url: 'https://investor.vanguard.com' },
  { t: 'XLF', name: 'Financial Select Sector SPDR Fund', ex: 'ARCX', type: 'ETF', since: '1999-01-04', cik: '0001064641',
    desc: 'Exchange-traded fund that seeks to track the financial sector of the S&P 500 Index.', url: 'https://www.ssga.com' },
  { t: 'XLK', name: 'Technology Select Sector SPDR Fund', ex: 'ARCX', type: 'ETF', since: '1999-01-04', cik: '0001064641',
    desc: 'Exchange-traded fund that seeks to track the information technology sector of the S&P 500 Index.', url: 'https://www.ssga.com' },
  { t: 'XLE', name: 'Energy Select Sector SPDR Fund', ex: 'ARCX', type: 'ETF', since: '1999-01-04', cik: '0001064641',
    desc: 'Exchange-traded fund that seeks to track the energy sector of the S&P 500 Index.', url: 'https://www.ssga.com' },
  { t: 'GLD', name: 'SPDR Gold Shares', ex: 'ARCX', type: 'ETF', cik: '0001222333', list: '2004-11-18',
    desc: 'Trust that holds physical gold bullion and seeks to reflect the price of gold, less expenses.', url: 'https://www.spdrgoldshares.com' },
  { t: 'SLV', name: 'iShares Silver Trust', ex: 'ARCX', type: 'ETF', cik: '0001330568', list: '2006-04-28',
    desc: 'Trust that holds physical silver and seeks to reflect the price of silver, less expenses.', url: 'https://www.ishares.com' },
  { t: 'TQQQ', name: 'ProShares UltraPro QQQ', ex: 'XNAS', type: 'ETF', since: '2010-03-01',
    desc: 'Leveraged exchange-traded fund that seeks daily results of three times the daily performance of the Nasdaq-100 Index.', url: 'https://www.proshares.com' },
  { t: 'SQQQ', name: 'ProShares UltraPro Short QQQ', ex: 'XNAS', type: 'ETF', since: '2010-03-01',
    desc: 'Inverse leveraged exchange-traded fund that seeks daily results of minus three times the daily performance of the Nasdaq-100 Index.', url: 'https://www.proshares.com' },
  // Rows below are exactly as in the recorded upstream list bodies (2022).
  { t: 'AAA', name: 'AAF First Priority CLO Bond ETF', ex: 'ARCX', type: 'ETF', since: '2020-10-01', figi: 'BBG00X5FSP48', scfigi: 'BBG00X5FSPZ4',
    desc: 'Actively managed exchange-traded fund investing in AAA-rated collateralized loan obligation tranches.' },
  { t: 'AAAU', name: 'Goldman Sachs Physical Gold ETF Shares', ex: 'BATS', type: 'ETF', since: '2018-10-01', cik: '0001708646', figi: 'BBG00LPXX872', scfigi: 'BBG00LPXX8Z1',
    desc: 'Trust that holds physical gold bullion and seeks to reflect the price of gold, less expenses.' },
];

/** Real US stocks, ADRs and ETFs in the demo universe (for the bars / options generators). */
export const REAL_STOCK_SYMBOLS: string[] = REAL_STOCKS.map((s) => s.t);

// ---- real indices ----------------------------------------------------------------------------

interface RealIndex {
  t: string;
  name: string;
  feed: string;
  since: string;
}

/** source_feed: the feed we chose per index family (U). `since` = index launch (approximate). */
const REAL_INDICES: readonly RealIndex[] = [
  { t: 'I:SPX', name: "Standard & Poor's 500", feed: 'CBOE', since: '1957-03-04' },
  { t: 'I:DJI', name: 'Dow Jones Industrial Average', feed: 'CME', since: '1896-05-26' },
  { t: 'I:NDX', name: 'Nasdaq-100', feed: 'Nasdaq', since: '1985-01-31' },
  { t: 'I:COMP', name: 'NASDAQ Composite', feed: 'Nasdaq', since: '1971-02-05' },
  { t: 'I:VIX', name: 'Cboe Volatility Index', feed: 'CBOE', since: '1993-01-19' },
  { t: 'I:RUT', name: 'Russell 2000 Index', feed: 'CBOE', since: '1984-01-02' },
  { t: 'I:OEX', name: 'S&P 100 Index', feed: 'CBOE', since: '1983-03-11' },
];

export const REAL_INDEX_SYMBOLS: string[] = REAL_INDICES.map((i) => i.t);

// ---- currencies and crypto assets -------------------------------------------------------------

/** ISO 4217 codes and names. EUR from its launch; the rest from 2000-01-03 (demo history start). */
const FIAT: ReadonlyArray<readonly [code: string, name: string]> = [
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
const FIAT_NAME = new Map(FIAT);
const FX_START = '2000-01-03';

/** FX pairs flagged as the well-known "real" majors (all pairs are real currency codes). */
export const FX_MAJOR_SYMBOLS: string[] = [
  'C:EURUSD', 'C:USDJPY', 'C:GBPUSD', 'C:AUDUSD', 'C:USDCAD', 'C:USDCHF',
  'C:NZDUSD', 'C:EURGBP', 'C:EURJPY', 'C:GBPJPY', 'C:USDMXN', 'C:EURCHF',
];

/** Crypto assets: code, name, approximate start of exchange trading (used only as valid_from). */
const CRYPTO: ReadonlyArray<readonly [code: string, name: string, since: string]> = [
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
const CRYPTO_NAME = new Map(CRYPTO.map(([c, n]) => [c, n] as const));
const STABLECOINS = new Set(['USDC', 'USDT', 'DAI']);

export const CRYPTO_MAJOR_SYMBOLS: string[] = [
  'X:BTCUSD', 'X:ETHUSD', 'X:SOLUSD', 'X:XRPUSD', 'X:LTCUSD', 'X:DOGEUSD', 'X:ADAUSD', 'X:BCHUSD',
];

// =============================================================================================
// Reserved symbols (collision guard for the synthetic tail)
// =============================================================================================

// The ~1,100 largest SEC-registered symbols (SEC company_tickers.json, early 2026, in order),
// with SEC's '-' class separator written as '.'.
const SEC_TOP_SYMBOLS = `
NVDA GOOGL AAPL MSFT AMZN META AVGO TSLA BRK.B WMT LLY JPM SPY V XOM ASML JNJ ORCL MA MU COST BABA
AMD ABBV PLTR BAC HD NFLX PG CVX KO GE CSCO HSBC LRCX CAT AZN TM NVS MS GS NVO WFC PM IBM CYATY SAP
RTX MRK AMAT UNH AXP QQQ RY TMO MCD INTC CRM SHEL KLAC LIN MUFG TMUS C PEP APH DIS SAN BA GEV SCHW
AMGN ISRG ABT RIO ANET APP BX NEE BHP SHOP TXN GILD BLK ACN UBER DHR RTNTF BKNG HDB VZ TJX T QCOM
DTEGY TD SPGI SCCO UBS TTE LOW INTU PDD HTHIY PFE ADI HON BBVA UL DE NEM NOW LMT BSX COF UNP SMFG
BUD SONY SYK ETN BTI UTX MDT IBKR WELL PANW COP ADBE GLD ARM PGR VRTX CB CRWD PLD ATEYY HCA PH MELI
SNY CMCSA BMY SBUX AEM KKR MFG MO BN IBN SPOT ENB CEG MCK CVNA ADP GSK CME ICE BMO GD SO NOC PBR
ITUB BP SNPS BNS HOOD IAU GLW BCS DUK NKE WM MCO CVS UPS PNC FCX NU DASH B MRSH USB TT ING CM HWM
CDNS WDC SHW LYG MAR ORLY NTES AMT MMM NGG MGCLY BAM EMR BK CRH BAESY GM REGN ABNB STX ECL TDG WMB
CMI MNST EQIX RCL DB DELL CTAS APO CNQ MDLZ SLB ITW SE INFY FDX NWG SNOW ELV VRT NET CI EPD JCI
MRVL PWR AON ATVK SNDK CSX VALE HLT SPG WBD RELX CL COR WPM TEL RSG MSI LHX CP KXIAY IFNNY KMI
EQNR TFC NSC AEP BMWKY AMX AZO PCAR SU CNI MFC TRV FTNT CSLLY AJG ET E ROST RACE TRP EOG RKT LSEGY
URI BDX AFL NXPI APD DLR COIN SRE ADSK VLO MPLX PSX NDAQ TAK O BKR VST IDXX F EONGY ZTS BIDU AU CCJ
CRWV TRI ARGX CMG BSBR PYPL MPWR IMO D MPC AED ALL EA MET AME CAH GFI FNV RBLX GWW CBRE FERG FAST
WDAY FER CTVA DEO EW OKE ARES PSA CARR AXON DDOG PTCAY GBTC TGT ROK HEI AMP ALNY MSTR RKLB HLN KGC
FANG TTWO EXC GALDY LNG XEL MSCI ABEV OXY BBD ASX WCN JD EBAY NUGN DHI DAL ETR GWLIF YUM SCMWY MT
TRGP EL CCEP LVS PUK CTSH KR IQV AIG FIX ASTS TCOM MCHP SYY PEG ALC DIA ROP NUE WAB VMC GRMN TYHOY
XYZ NOK MLM CPRT HMC HSY A MDLN CLS ED TER CCI PRU CUK CCL PAYX KDP KEYS TEVA RMD ONC RDDT FMX FICO
ERIC FRFHF CVE GEHC CPNG ODFL APC HIG SATS FISV WEC KB VEEV BE RYAAY VTR STT OTIS TEAM MDY ZS SLF
SYM ACGL CIEN SLV INSM IR NTR XYL LYV WDS MTB VOD EQT ESLT IX UAL COHR CHLSY KVUE MDB NTRA KMB RJF
PCG FSNUY UI CHT EXPE ADM DLMAY DG SOFI EME FOXA UMC EXR QSR WTW VIK ROL VICI FIS VRSK NRG AMRZ
BNTX KBGGY FLUT TSCO MTD SHG LPLA ULTA HAL FTAI TDY ASHGY DXCM HPE ALAB TME DOV DTE NTRS ZM BAP STLA
PHG STZ EC AEE CSGP KHC CBOE TECK KEP HBAN FE WIT CQP ATO CFG LEN PPL SYF PAAS FTS IRM RSHGY NMR ES
TPR GFS LITE STM CNP EXE STE JBL STLD HUBB EFX AER ON BIIB WRB AWK MKL BRO FSLR AVB DVN HUM CHTR
VLTO PPG WSM CW DLTR RGLD OMC CINF NBIS FCNCA PSTG EQR PHM RF FUJIY FLEX BR EIX SQM LDOS PBA GIS TPL
RPRX BCE KEY DIDIY AXIA ILMN CRDO VRSN WAT GELHY TSN TLK TROW TPG DRI FTI BCH VIV CASY KOF AFRM ALB
OWL FUTU TW TS CHD LH CYBR BG CPAY TELNY SW IP FWONA LULU WTKWY CMS PSLV RBA CG VG LUV RL CIB UTHR
EDPFY EXPD TU SOAGY GMAB CHRW L AS NI CTRA SSNC Q BEKE NVR GPN AMCR DGX PFG TWLO IHG HKHHY LTM CNC
INCY PKG NTAP KTOS RCI SBAC WWD DOW IREN PTC CHKP MTZ EXAS BWXT GPC JBHT CKHGF RVMD GIB SNA GRAB PKX
TOST SBS SGI HL WY PHYS USFD IFF RIVN CX DD PODD SMCI BEP DKS TYL NVT ENTG BURL AGI HPQ FITBI APG
FTV NJDCY FN YUMC MRNA EVRG CRCL XPEV U IOT PNR IT LII XPO ESS BSAC SN WST CRS JBS LNT RS ATI ZTO
ZBH MKC APTV LI MEDP RTO JLL HUBS TXT HOLX WES THC QXO TRMB NLY HII ZG MTSI TLN CDE CDW INVH BIP TKO
SUI YPF J LYB OKTA MAA IONQ NXT COO TRU RBC PINS WF RGC WMG GFL KSPI ITT TTD FFIV WSO ROIV EWBC NWSA
GEN BALL HTHT ROKU AVAV MKSI AA PUGBY PFGC NDSN CRBG EMA WPC MGA VTRS HMY ONON KRMN ARNNY DKNG H
LPGCY MLI TSEM BBIO AKAM GH CF DECK FNF CSL SNN IEX ICLR ARCC ULS ASND GGG W EMBJ AVY SBSW GDDY ALLE
PAC CELH PNFP ERIE CACI KIM LECO BILI NVMI FIG PEN EVR MAS DPZ WCC CLH UDR JHX HRL BBY LYTHF CLX PAA
TOL LOGI RPM EQH GWRE EG BLD CNH SOLV FIGR GLXY OBICY AMH NBIX OKLO BEN BMNR IONS RVTY ALLY EQX VNOM
REG OHI FMS BNT BLDR PMDIY JKHY CHWY AGNC RGA LAMR HST UNM NPXYY RNR SF GLPI UHS JEF SNAP DSEEY ELS
PSKY ACM SNX IAG CNA HLI HAS BJ BF.A SWK AG AMKR DTM DLAKY RBRK RMBS GIL GMED DOC RYAN TXRH DT JOBY
ELAN SUZ EPAM CMA ZBRA IVZ CCK ALGN FHN AIZ WMS TEM NYT CRRFY SMMT WYNN MP EXEL AEG NIO DCI UUGRY
CPT LSCC YARIY STN BXP RDY STRL APLD PR TIMB MDGL PNW CEF BSY SCI DY SJM DRS QGEN NTNX GL WTRG DOCU
DAY SARO BAH SUN RNA BMRN CAE CNM MICC GME CFLT OVV CRL UHAL SPXC CR AFG TECH AR AES PAG SKM NCLTY
ASR XP WLK BWA SEIC JCYGY HBM YMM WBS ONTO FIVE SAIL PPC MANH RRX JAZZ BPYPP ARMK SSB FLS OC TIGO
BAX FDS COKE GNRC NGD CART MOH CHYM GAP KT ENSG WTS AOS SOLS ARE AIT WAL POOL ALV AEIS PCOR FNMA
TTMI KLAR TTEK WTFC EGO BVN REXR OSK MOG.A AYI TAP ORI DDS BROS LUMN EHC EGP COMP IESC NCLH AXSM
UMBF UWMC SFD SITM DINO EDU ONB SAIA HSIC SPIIY GTLS MINBY ARWR ABVX UEC APA ALSN PL RGEN QBTS LKNCY
ACI MGM KAIKY STEP GDS GGAL DOX VARRY OGE LINE MOS KNSL USO SWKS AM TFII GGB BZLFY KNX AAL VMI
SOTGY TTC FRT BPOP AMG PRAX ZION CFR VIPS COLB AMTM GWKSY OR IDCC CAG TTAN UGI CUBE MORN LKQ AHR
PEGA TX RRC CMC AGCO LEVI AUR ADC NXE PRI HLNE HALO PSO BOKF MUSA ATR PRIM MBLY CPB EQPT CLF BRX
JBTM CTRE GSAT CADE AWI KRYS BIO JXN VIRT
`;

// Popular ETFs/ETNs and notable symbols (including well-known delisted ones) not in the list above.
const EXTRA_RESERVED = `
IWM VTI VOO IVV EEM EFA XLF XLK XLE XLV XLI XLY XLP XLU XLB XLRE XLC TLT LQD HYG TQQQ SQQQ VXX UVXY
SOXL SOXS ARKK ARKG ARKW AGG BND VEA VWO VUG VTV VIG VYM SCHD SCHX SCHB SCHF SCHG JEPI JEPQ IEMG IEFA
IJH IJR VNQ GDX GDXJ SMH SOXX KRE KBE XBI IBB ITB XHB XRT XOP OIH UNG FXI EWZ EWJ EWY EWT EWG EWU EWC
EWA EWW INDA KWEB MCHI IBIT FBTC ETHA ARKB BITB BITO SPLG SPYG SPYV SPDW RSP IWF IWD IWB IWO IWN IWV
IWR IWS IWP VB VO VBR VBK VOE VOT VTWO BIL SHY SHV IEI IEF SGOV TIP SCHP MUB EMB JNK BKLN SRLN DBC
PDBC GSG SIVR PPLT PALL CPER URA LIT TAN ICLN QCLN PBW JETS QQQM QLD QID PSQ SH SDS SSO SPXL SPXS
SPXU UPRO TNA TZA LABU LABD FAS FAZ NUGT DUST TMF TMV TBT UCO SCO BOIL KOLD USMV MTUM QUAL VLUE SIZE
DGRO DVY HDV NOBL SDY VT ACWI BNDX VXUS IXUS VGK VPL VSS EZU HEFA MINT NEAR FLOT JPST GOVT VGSH VGIT
VGLT BSV BIV BLV VCSH VCIT VCLT IGSB IGIB USHY SPHY SJNK HYLB ANGL PFF PGX VRP XLG MGK OEF IVW IVE
IUSG IUSV SPMD SPSM SPTM ITOT GLDM SGOL BAR OUNZ AAAU AAA DXJ HEDJ EWH EWS EWP EWI EWL EWD EWN EWQ
GOOG BRK.A BF.B FOX NWS UA UAA LBRDA LBRDK FWONK AMC BB SIRI PLUG LCID PTON SQ TWTR FB ATVI CELG MON
XLNX RHT LNKD YHOO EMC AGN BRCM ALXN KSU SIVB FRC SBNY PBCT CTXS NLOK DISCA DISCK VIAC CBS TWX
BRCD GMCR LLTC MXIM CERN NUAN ZNGA SPLK ANSS JNPR HES MRO PXD CHK DISH WBA KSS JWN M X TGNA SAVE
WORK TWLO SNE AABA RDS.A RDS.B BHI ESRX MYL AET ANTM TIF CXO NBL APC ETFC TDA LB COG FLIR VAR RTN
UTX CTL DWDP DOWDP IBN
A B C D E F G H I J K L M N O P Q R S T U V W X Y Z
`;

function parseSymbols(text: string): string[] {
  return text
    .split(/\s+/)
    .filter((s) => s.length > 0)
    .map((s) => s.replace(/-/g, '.'));
}

function rootOf(symbol: string): string {
  const dot = symbol.indexOf('.');
  return dot === -1 ? symbol : symbol.slice(0, dot);
}

/**
 * Symbols that synthetic tickers (and their roots) must never equal: our real set, the largest
 * SEC-registered symbols and extra notable symbols, plus the roots of all of these (BRK, BF ...)
 * and the roots of the real indices (SPX, NDX, COMP ...).
 */
export const RESERVED_SYMBOLS: ReadonlySet<string> = (() => {
  const out = new Set<string>();
  const add = (s: string): void => {
    out.add(s);
    out.add(rootOf(s));
  };
  for (const s of parseSymbols(SEC_TOP_SYMBOLS)) add(s);
  for (const s of parseSymbols(EXTRA_RESERVED)) add(s);
  for (const s of REAL_STOCK_SYMBOLS) add(s);
  for (const s of REAL_INDEX_SYMBOLS) add(s.slice(2));
  return out;
})();

// =============================================================================================
// Small helpers: dates, FIGIs, CIKs
// =============================================================================================

// Pure-arithmetic civil-date conversions (proleptic Gregorian, days since 1970-01-01), after
// Howard Hinnant's days_from_civil / civil_from_days. No Date objects: fast and allocation-free.

function toDays(date: string): number {
  let y = Number(date.slice(0, 4));
  const m = Number(date.slice(5, 7));
  const d = Number(date.slice(8, 10));
  if (m <= 2) y -= 1;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

function fromDays(days: number): string {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  const y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  return `${y}-${pad2(m)}-${pad2(d)}`;
}

/** Move Saturday/Sunday forward to Monday. */
function weekday(days: number): number {
  const dow = (((days + 4) % 7) + 7) % 7; // 0 = Sunday (1970-01-01 was a Thursday)
  if (dow === 6) return days + 2;
  if (dow === 0) return days + 1;
  return days;
}

function randomDate(rng: Rng, from: string, to: string): string {
  const a = toDays(from);
  const b = toDays(to);
  return fromDays(Math.min(weekday(rng.int(a, b)), b));
}

/** A random business date with more mass near `to` (power > 1 skews towards recent dates). */
function recentSkewedDate(rng: Rng, from: string, to: string, power: number): string {
  const a = toDays(from);
  const b = toDays(to);
  const u = 1 - Math.pow(rng.next(), power);
  return fromDays(Math.min(weekday(a + Math.floor((1 - u) * (b - a))), b));
}

function addDays(date: string, n: number): string {
  return fromDays(toDays(date) + n);
}

function utc(date: string): string {
  return `${date}T00:00:00Z`;
}

const FIGI_ALPHABET = '0123456789BCDFGHJKLMNPQRSTVWXYZ';

function figiCharValue(ch: string): number {
  const code = ch.charCodeAt(0);
  if (code >= 48 && code <= 57) return code - 48;
  return code - 65 + 10; // A=10 ... Z=35
}

/** FIGI check digit (modified Luhn over the first 11 characters, as CUSIP). */
export function figiCheckDigit(first11: string): string {
  let sum = 0;
  for (let i = 0; i < 11; i++) {
    let v = figiCharValue(first11[i] as string);
    if (i % 2 === 1) v *= 2;
    sum += Math.floor(v / 10) + (v % 10);
  }
  return String((10 - (sum % 10)) % 10);
}

/** Structural FIGI validity: 12 chars, 'G' third, no vowels, valid check digit. */
export function isValidFigi(figi: string): boolean {
  if (!/^[B-DF-HJ-NP-TV-Z]{2}G[0-9B-DF-HJ-NP-TV-Z]{8}[0-9]$/.test(figi)) return false;
  return figiCheckDigit(figi.slice(0, 11)) === figi[11];
}

// =============================================================================================
// Word lists for synthetic names
// =============================================================================================

const NAME_STEMS: readonly string[] = [
  'Northgate', 'Silverline', 'Bluewater', 'Redstone', 'Clearpoint', 'Ironwood', 'Stonebridge', 'Brightwater',
  'Cedarcrest', 'Eastlake', 'Fairhaven', 'Goldcrest', 'Kingsbury', 'Lakemont', 'Maplerock', 'Oakhurst',
  'Pinecrest', 'Ridgeway', 'Summitview', 'Thornbury', 'Valleyfield', 'Willowbrook', 'Amberfield', 'Copperhill',
  'Deerpath', 'Elmstead', 'Foxglove', 'Granitepeak', 'Hollowell', 'Juniper', 'Kestrelwood', 'Larkspur',
  'Meadowlark', 'Northwind', 'Orchardhill', 'Prairierock', 'Quarrylane', 'Riverbend', 'Saltmarsh', 'Tallgrass',
  'Upland', 'Vantage Ridge', 'Westmere', 'Yellowpine', 'Aventra', 'Bravix', 'Calyra', 'Dexora', 'Elvion',
  'Fynara', 'Galdera', 'Intora', 'Jovira', 'Kelvra', 'Lumora', 'Myrion', 'Nexvale', 'Orvana', 'Pexira',
  'Quorvia', 'Rivalta', 'Sovira', 'Talvera', 'Ulvera', 'Vexora', 'Wyndra', 'Xylora', 'Yaveri', 'Zentara',
  'Arcadia Peak', 'Beacon Hill', 'Coastal Plain', 'Driftwood', 'Emberline', 'Falconcrest', 'Glenmoor',
  'Harborlight', 'Islewood', 'Jadestone', 'Keystone Bay', 'Lanterna', 'Mosswood', 'Nightingale', 'Oceanic Bay',
  'Palisade', 'Quicksilver Bay', 'Rosewood', 'Sagebrush', 'Timberline', 'Umbria', 'Verdant', 'Wildrose',
  'Aurelian', 'Boreal', 'Cobalt Creek', 'Dunmore', 'Evergreen Bay', 'Fernhill', 'Graystone', 'Heathrow Park',
  'Indigo', 'Jasper', 'Kinross Park', 'Linden', 'Marlowe', 'Norcross', 'Osprey', 'Pembrook', 'Quillon',
  'Ravenna', 'Sterling Ridge', 'Tessera', 'Unity Ridge', 'Vireo', 'Waverly', 'Yarrow', 'Zephyr Peak',
];

interface Industry {
  nouns: readonly string[];
  sic: string;
  what: string;
  weight: number;
}

const INDUSTRIES: readonly Industry[] = [
  { nouns: ['Biotherapeutics', 'Therapeutics', 'Biosciences', 'Bio'], sic: '2836', what: 'develops biologic therapies for oncology, immunology and rare diseases', weight: 12 },
  { nouns: ['Pharmaceuticals', 'Pharma'], sic: '2834', what: 'develops and commercializes prescription medicines', weight: 7 },
  { nouns: ['Medical', 'Surgical', 'MedTech'], sic: '3841', what: 'designs and manufactures surgical and medical devices', weight: 5 },
  { nouns: ['Semiconductor', 'Microsystems', 'Silicon'], sic: '3674', what: 'designs semiconductors for data-center, automotive and industrial markets', weight: 5 },
  { nouns: ['Software', 'Systems', 'Analytics'], sic: '7372', what: 'sells subscription software for enterprises', weight: 8 },
  { nouns: ['Digital', 'Networks', 'Data'], sic: '7370', what: 'operates online platforms and data-processing services', weight: 5 },
  { nouns: ['Bancorp', 'Financial', 'Bancshares'], sic: '6022', what: 'is the holding company of a community bank offering deposit, lending and treasury services', weight: 10 },
  { nouns: ['Insurance Group', 'Assurance'], sic: '6331', what: 'underwrites property and casualty insurance', weight: 3 },
  { nouns: ['Realty', 'Properties', 'Real Estate Trust'], sic: '6798', what: 'owns and operates income-producing real estate as a REIT', weight: 6 },
  { nouns: ['Energy', 'Petroleum', 'Resources'], sic: '1311', what: 'explores for and produces oil and natural gas', weight: 5 },
  { nouns: ['Gold', 'Mining', 'Minerals'], sic: '1040', what: 'explores for and develops gold and silver deposits', weight: 4 },
  { nouns: ['Power', 'Utilities', 'Electric'], sic: '4911', what: 'generates, transmits and distributes electricity', weight: 3 },
  { nouns: ['Logistics', 'Freight', 'Transport'], sic: '4213', what: 'provides truckload and logistics services', weight: 3 },
  { nouns: ['Restaurants', 'Kitchen', 'Hospitality'], sic: '5812', what: 'operates and franchises restaurants', weight: 3 },
  { nouns: ['Foods', 'Brands', 'Provisions'], sic: '2000', what: 'manufactures and markets packaged foods', weight: 3 },
  { nouns: ['Aerospace', 'Aviation', 'Defense'], sic: '3728', what: 'manufactures aircraft components and defense systems', weight: 3 },
  { nouns: ['Automotive', 'Mobility', 'Motors'], sic: '3714', what: 'supplies vehicle components and mobility systems', weight: 3 },
  { nouns: ['Communications', 'Telecom', 'Wireless'], sic: '4813', what: 'provides broadband, voice and wireless services', weight: 2 },
  { nouns: ['Industries', 'Machinery', 'Manufacturing'], sic: '3559', what: 'builds specialized industrial machinery', weight: 4 },
  { nouns: ['Chemicals', 'Materials', 'Polymers'], sic: '2860', what: 'produces specialty chemicals and materials', weight: 3 },
  { nouns: ['Homes', 'Builders', 'Communities'], sic: '1531', what: 'builds single-family homes and residential communities', weight: 2 },
  { nouns: ['Solutions', 'Services', 'Partners'], sic: '7389', what: 'provides outsourced business services', weight: 4 },
  { nouns: ['Labs', 'Research', 'Diagnostics'], sic: '8731', what: 'performs contract research and laboratory testing', weight: 3 },
  { nouns: ['Capital', 'Asset Management', 'Investors'], sic: '6282', what: 'provides investment advisory and asset management services', weight: 3 },
  { nouns: ['Outfitters', 'Stores', 'Apparel'], sic: '5651', what: 'operates specialty apparel stores and e-commerce sites', weight: 2 },
  { nouns: ['Shipping', 'Maritime', 'Tankers'], sic: '4400', what: 'owns and operates ocean-going vessels', weight: 2 },
  { nouns: ['Solar', 'Renewables', 'Hydrogen'], sic: '3690', what: 'develops clean-energy equipment and projects', weight: 4 },
];
const INDUSTRY_TOTAL_WEIGHT = INDUSTRIES.reduce((s, i) => s + i.weight, 0);

const CORP_SUFFIXES: readonly string[] = ['Inc.', 'Inc.', 'Inc.', 'Corp.', 'Corporation', 'Holdings, Inc.', 'Group, Inc.', 'Co.'];
const FOREIGN_SUFFIXES: readonly string[] = ['plc', 'Ltd.', 'Limited', 'S.A.', 'N.V.', 'AG', 'SE', 'A/S', 'Holdings Ltd.'];

/** Fictional fund families: name, short brand used in symbols. */
const FUND_FAMILIES: readonly string[] = [
  'Northgate', 'Harborline', 'Clearwater Select', 'Bluecrest', 'Summitview', 'Ridgeway', 'Ironbridge',
  'Meridian Peak', 'Lakemont', 'Copperhill', 'Oakhurst', 'Stonebridge', 'Kestrel', 'Aventra', 'Galdera',
  'Lumora', 'Pexira', 'Rivalta', 'Talvera', 'Zentara', 'Waverly', 'Osprey', 'Palisade', 'Timberline',
  'Beacon Hill', 'Driftwood', 'Fernhill', 'Graystone', 'Marlowe', 'Vireo',
];

const ETF_THEMES: readonly string[] = [
  'U.S. Large Cap Core', 'U.S. Large Cap Growth', 'U.S. Large Cap Value', 'U.S. Mid Cap Core', 'U.S. Mid Cap Growth',
  'U.S. Small Cap Core', 'U.S. Small Cap Value', 'U.S. Micro Cap', 'Total U.S. Market', 'International Developed Equity',
  'Emerging Markets Equity', 'Global Equity', 'Short-Term Treasury', 'Intermediate Treasury', 'Long-Term Treasury',
  'Ultra Short Income', 'Investment Grade Corporate Bond', 'High Yield Bond', 'Municipal Bond', 'Inflation-Protected Bond',
  'Floating Rate Loan', 'Mortgage-Backed Securities', 'Aggregate Bond', 'Dividend Growth', 'High Dividend Yield',
  'Quality Factor', 'Momentum Factor', 'Low Volatility', 'Equal Weight', 'Multifactor', 'Clean Energy', 'Semiconductor',
  'Cybersecurity', 'Cloud Computing', 'Robotics & Automation', 'Artificial Intelligence', 'Genomics', 'Biotechnology',
  'Healthcare', 'Financials', 'Regional Banks', 'Energy', 'Utilities', 'Real Estate', 'Consumer Staples',
  'Consumer Discretionary', 'Industrials', 'Materials', 'Communication Services', 'Gold Miners', 'Silver Miners',
  'Covered Call Income', 'Buffer', 'Japan Equity', 'Europe Equity', 'China Equity', 'India Equity', 'Brazil Equity',
  'Global Infrastructure', 'Water Resources', 'Agribusiness', 'Preferred Securities', 'Convertible Bond', 'ESG Leaders',
  'Space & Defense', 'Electric Vehicles', 'Lithium & Battery', 'Uranium', 'Video Games & Esports', 'Travel & Leisure',
];

const FUND_THEMES: readonly string[] = [
  'Municipal Income', 'Global Income', 'Equity Income', 'Premium Income', 'Credit Opportunities', 'Utility & Infrastructure',
  'Real Estate Income', 'Floating Rate Income', 'Tax-Advantaged Dividend', 'High Income', 'Enhanced Equity', 'Emerging Markets Debt',
];

const INDEX_PROVIDERS: readonly string[] = ['Harborline', 'Meridian Peak', 'Clearwater', 'Northgate', 'Kestrel', 'Talvera', 'Summitview'];
const INDEX_REGIONS: readonly string[] = ['US', 'Global', 'Developed ex-US', 'Emerging Markets', 'Europe', 'Asia Pacific', 'North America'];
const INDEX_THEMES: readonly string[] = [
  'Large Cap', 'Mid Cap', 'Small Cap', 'Semiconductor', 'Software', 'Banks', 'Biotechnology', 'Clean Energy', 'Dividend',
  'Low Volatility', 'Momentum', 'Quality', 'Value', 'Growth', 'Infrastructure', 'Real Estate', 'Oil & Gas', 'Gold Miners',
  'Consumer Brands', 'Cybersecurity', 'Robotics', 'Water', 'Aerospace & Defense', 'Healthcare Innovation',
];
const INDEX_VARIANTS: readonly string[] = ['Index', 'Index', 'Total Return Index', 'Net Total Return Index', 'Equal Weight Index'];

/** Real cities with a downtown ZIP and area code; streets and numbers are invented. */
const CITIES: ReadonlyArray<readonly [city: string, state: string, zip: string, area: string]> = [
  ['New York', 'NY', '10022', '212'], ['Boston', 'MA', '02110', '617'], ['Chicago', 'IL', '60606', '312'],
  ['Austin', 'TX', '78701', '512'], ['Dallas', 'TX', '75201', '214'], ['Houston', 'TX', '77002', '713'],
  ['San Francisco', 'CA', '94105', '415'], ['San Jose', 'CA', '95113', '408'], ['San Diego', 'CA', '92101', '619'],
  ['Los Angeles', 'CA', '90071', '213'], ['Seattle', 'WA', '98101', '206'], ['Denver', 'CO', '80202', '303'],
  ['Atlanta', 'GA', '30303', '404'], ['Miami', 'FL', '33131', '305'], ['Tampa', 'FL', '33602', '813'],
  ['Charlotte', 'NC', '28202', '704'], ['Raleigh', 'NC', '27601', '919'], ['Minneapolis', 'MN', '55402', '612'],
  ['Phoenix', 'AZ', '85004', '602'], ['Salt Lake City', 'UT', '84101', '801'], ['Pittsburgh', 'PA', '15222', '412'],
  ['Philadelphia', 'PA', '19103', '215'], ['Cleveland', 'OH', '44114', '216'], ['Columbus', 'OH', '43215', '614'],
  ['Nashville', 'TN', '37203', '615'], ['Portland', 'OR', '97204', '503'], ['Baltimore', 'MD', '21202', '410'],
  ['Detroit', 'MI', '48226', '313'], ['St. Louis', 'MO', '63101', '314'], ['Kansas City', 'MO', '64105', '816'],
  ['Indianapolis', 'IN', '46204', '317'], ['Princeton', 'NJ', '08540', '609'], ['Cambridge', 'MA', '02139', '617'],
  ['Stamford', 'CT', '06901', '203'], ['Las Vegas', 'NV', '89101', '702'], ['Oklahoma City', 'OK', '73102', '405'],
  ['Boise', 'ID', '83702', '208'], ['Richmond', 'VA', '23219', '804'], ['Madison', 'WI', '53703', '608'],
  ['Omaha', 'NE', '68102', '402'],
];
const STREET_NAMES: readonly string[] = [
  'Market', 'Commerce', 'Park', 'Lake', 'Oak', 'Cedar', 'Harbor', 'Innovation', 'Technology', 'Research', 'Enterprise',
  'Congress', 'Liberty', 'Meridian', 'Summit', 'Riverfront', 'Franklin', 'Jefferson', 'Madison', 'Lincoln', 'Gateway',
];
const STREET_TYPES: readonly string[] = ['Street', 'Avenue', 'Boulevard', 'Drive', 'Parkway', 'Way', 'Place', 'Plaza'];

const BLOCKED_WORDS = new Set([
  'ANAL', 'ANUS', 'ARSE', 'BOOB', 'CLIT', 'COCK', 'COON', 'CRAP', 'CUNT', 'DAMN', 'DICK', 'DYKE', 'FAGS', 'FUCK',
  'GOOK', 'HOMO', 'JIZZ', 'KIKE', 'NAZI', 'PISS', 'POOP', 'PORN', 'PUSS', 'RAPE', 'SHIT', 'SLUT', 'SPIC', 'TITS',
  'TWAT', 'WANK', 'WHOR', 'DUMB', 'DEAD', 'KILL', 'HELL', 'SCAM', 'FAKE', 'FRAU', 'BOMB', 'DRUG',
]);

// =============================================================================================
// Symbol allocation
// =============================================================================================

const LETTER_ARR: readonly string[] = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'];

class SymbolAllocator {
  private readonly taken = new Set<string>();

  constructor(private readonly reserved: ReadonlySet<string>) {}

  isFree(symbol: string): boolean {
    return !this.taken.has(symbol) && !this.reserved.has(symbol) && !this.reserved.has(rootOf(symbol));
  }

  claim(symbol: string): void {
    if (!this.isFree(symbol)) throw new Error(`symbol ${symbol} is not free`);
    this.taken.add(symbol);
  }

  /** A fresh 4-letter root derived from the name words when possible, random otherwise. */
  root(rng: Rng, words: readonly string[]): string {
    const w = words.map((x) => x.toUpperCase().replace(/[^A-Z]/g, '')).filter((x) => x.length > 0);
    const w1 = w[0] ?? '';
    const w2 = w[1] ?? '';
    const w3 = w[2] ?? '';
    const consonants = (s: string): string => (s.length === 0 ? '' : s.slice(0, 1) + s.slice(1).replace(/[AEIOU]/g, ''));
    const candidates = [
      w1.slice(0, 2) + w2.slice(0, 2),
      w1.slice(0, 3) + w2.slice(0, 1),
      w1.slice(0, 1) + w2.slice(0, 3),
      w1.slice(0, 1) + w2.slice(0, 1) + w3.slice(0, 2),
      consonants(w1).slice(0, 3) + w2.slice(0, 1),
      consonants(w1).slice(0, 4),
      w1.slice(0, 4),
      w1.slice(0, 2) + consonants(w2).slice(0, 2),
    ];
    for (const c of candidates) {
      if (c.length === 4 && /^[A-Z]{4}$/.test(c) && !BLOCKED_WORDS.has(c) && this.isFree(c)) return this.take(c);
    }
    const first = /^[A-Z]/.test(w1) ? w1.slice(0, 1) : rng.pick(LETTER_ARR);
    for (let i = 0; i < 40; i++) {
      const c = first + rng.pick(LETTER_ARR) + rng.pick(LETTER_ARR) + rng.pick(LETTER_ARR);
      if (!BLOCKED_WORDS.has(c) && this.isFree(c)) return this.take(c);
    }
    for (;;) {
      const c = rng.pick(LETTER_ARR) + rng.pick(LETTER_ARR) + rng.pick(LETTER_ARR) + rng.pick(LETTER_ARR);
      if (!BLOCKED_WORDS.has(c) && this.isFree(c)) return this.take(c);
    }
  }

  private take(symbol: string): string {
    this.taken.add(symbol);
    return symbol;
  }
}

// =============================================================================================
// Synthetic identifiers
// =============================================================================================

const FIGI_CHARS: readonly string[] = [...FIGI_ALPHABET];

class IdFactory {
  private cik = 9_000_000;
  private readonly figis = new Set<string>();

  constructor(private readonly rng: Rng, realFigis: Iterable<string>) {
    for (const f of realFigis) this.figis.add(f);
  }

  nextCik(): string {
    this.cik += this.rng.int(1, 97);
    return String(this.cik).padStart(10, '0');
  }

  figi(): string {
    for (;;) {
      let body = 'BBG00';
      for (let i = 0; i < 6; i++) body += this.rng.pick(FIGI_CHARS);
      const figi = body + figiCheckDigit(body);
      if (!this.figis.has(figi)) {
        this.figis.add(figi);
        return figi;
      }
    }
  }
}

// =============================================================================================
// Builders
// =============================================================================================

/** A ticker version before the as-of cut is applied. */
interface Draft {
  rec: TickerRecord;
  /** Internal delisting date (YYYY-MM-DD) when the issue stopped trading. */
  delisted?: string;
}

function slug(text: string): string {
  return text.toLowerCase().replace(/&/g, 'and').replace(/[^a-z0-9]+/g, '');
}

function pickIndustry(rng: Rng): Industry {
  let x = rng.int(1, INDUSTRY_TOTAL_WEIGHT);
  for (const ind of INDUSTRIES) {
    x -= ind.weight;
    if (x <= 0) return ind;
  }
  return INDUSTRIES[0] as Industry;
}

function roundTo(n: number, step: number): number {
  return Math.max(step, Math.round(n / step) * step);
}

function randomShares(rng: Rng, lo: number, hi: number): number {
  return roundTo(Math.pow(10, rng.float(lo, hi)), 1000);
}

function randomAddress(rng: Rng): { address: TickerAddress; phone: string } {
  const [city, state, zip, area] = rng.pick(CITIES);
  const number = rng.int(1, 9899);
  let address1 = `${number} ${rng.pick(STREET_NAMES)} ${rng.pick(STREET_TYPES)}`;
  if (rng.chance(0.35)) address1 += `, Suite ${rng.int(1, 39) * 100}`;
  const phone = `(${area}) 555-01${String(rng.int(0, 99)).padStart(2, '0')}`;
  return { address: { address1, city, state, postal_code: zip }, phone };
}

const SYNTHETIC_NOTE = 'This issuer is synthetic demo data generated by Tickerbase.';

interface GenContext {
  rng: Rng;
  symbols: SymbolAllocator;
  ids: IdFactory;
  usedNames: Set<string>;
  drafts: Draft[];
}

function uniqueName(ctx: GenContext, make: () => string): string {
  for (let i = 0; i < 50; i++) {
    const n = make();
    if (!ctx.usedNames.has(n)) {
      ctx.usedNames.add(n);
      return n;
    }
  }
  // Extremely unlikely with the word lists above; disambiguate deterministically.
  const base = make();
  let k = 2;
  while (ctx.usedNames.has(`${base} ${k}`)) k++;
  ctx.usedNames.add(`${base} ${k}`);
  return `${base} ${k}`;
}

interface CompanyDraftOpts {
  market: Market;
  type: string;
  exchange: string;
  listFrom: string;
  listTo: string;
  pInactive: number;
  foreign?: boolean;
  spac?: boolean;
  /** Restrict the industry to these SIC codes. */
  sics?: ReadonlySet<string>;
}

const SPAC_INDUSTRY: Industry = {
  nouns: ['Acquisition'],
  sic: '6770',
  what: 'is a blank-check company formed to effect a merger or similar business combination',
  weight: 0,
};

interface Company {
  name: string;
  root: string;
  cik?: string;
  list: string;
  delisted?: string;
  industry: Industry;
  homepage: string;
  exchange: string;
}

/** Draft one synthetic company (its primary listing) and return it for derived issues. */
function draftCompany(ctx: GenContext, o: CompanyDraftOpts): Company {
  const { rng } = ctx;
  let industry: Industry;
  if (o.spac) {
    industry = SPAC_INDUSTRY;
  } else if (o.sics) {
    const allowed = INDUSTRIES.filter((i) => o.sics?.has(i.sic));
    industry = rng.pick(allowed);
  } else {
    industry = pickIndustry(rng);
  }
  const name = uniqueName(ctx, () => {
    const s = rng.pick(NAME_STEMS);
    const n = rng.pick(industry.nouns);
    if (o.spac) return `${s} ${rng.pick(['Acquisition Corp.', 'Acquisition Corp. II', 'Capital Acquisition Corp.', 'Growth Acquisition Corp.'])}`;
    let suffix = o.foreign ? rng.pick(FOREIGN_SUFFIXES) : rng.pick(CORP_SUFFIXES);
    if (n.endsWith('Group') && suffix.startsWith('Group')) suffix = 'Inc.';
    return `${s} ${n} ${suffix}`;
  });
  const words = name.split(/\s+/).filter((x) => !/^(Inc\.|Corp\.|Co\.|Ltd\.|plc|AG|SE|S\.A\.|N\.V\.|A\/S|Limited|Corporation|Holdings,|Group,|II)$/.test(x));
  const root = ctx.symbols.root(rng, words);
  const list = o.spac ? randomDate(rng, o.listFrom, o.listTo) : recentSkewedDate(rng, o.listFrom, o.listTo, 1.6);
  let delisted: string | undefined;
  if (rng.chance(o.pInactive)) {
    const earliest = toDays(list) + 180;
    const latest = toDays('2026-10-30');
    if (earliest < latest) delisted = fromDays(Math.min(weekday(rng.int(earliest, latest)), latest));
  }
  const homepage = `https://www.${slug(words.slice(0, 2).join(''))}.example`;
  const company: Company = { name, root, list, industry, homepage, exchange: o.exchange };
  if (delisted) company.delisted = delisted;
  if (o.market === 'stocks' || rng.chance(0.6)) company.cik = ctx.ids.nextCik();
  return company;
}

interface IssueOpts {
  ticker: string;
  name: string;
  type: string;
  market: Market;
  exchange: string;
  company: Company;
  list: string;
  delisted?: string;
  suffix?: string;
  root?: string;
  overview: 'full' | 'basic' | 'minimal';
  currencyName?: string;
  figiChance?: number;
  description?: string;
  shares?: readonly [lo: number, hi: number];
}

/** Build one issue's record (not yet history-split). */
function issueRecord(ctx: GenContext, o: IssueOpts): Draft {
  const { rng } = ctx;
  const rec: TickerRecord = {
    ticker: o.ticker,
    name: o.name,
    market: o.market,
    locale: 'us',
    primary_exchange: o.exchange,
    type: o.type,
    active: o.delisted === undefined,
    currency_name: o.currencyName ?? 'usd',
    last_updated_utc: '',
    valid_from: o.list,
  };
  if (o.company.cik) rec.cik = o.company.cik;
  if (rng.chance(o.figiChance ?? 0.92)) {
    rec.composite_figi = ctx.ids.figi();
    if (rng.chance(0.9)) rec.share_class_figi = ctx.ids.figi();
  }
  if (o.overview !== 'minimal') {
    rec.description = o.description ?? `${o.company.name} ${o.company.industry.what}. ${SYNTHETIC_NOTE}`;
    rec.homepage_url = o.company.homepage;
    rec.list_date = o.list;
    rec.round_lot = 100;
  } else if (rng.chance(0.4)) {
    rec.list_date = o.list;
  }
  if (o.overview === 'full') {
    const { address, phone } = randomAddress(rng);
    rec.address = address;
    rec.phone_number = phone;
    rec.sic_code = o.company.industry.sic;
    rec.sic_description = SIC[o.company.industry.sic] as string;
    rec.total_employees = roundTo(Math.pow(10, rng.float(1.3, 4.9)), 1);
  }
  if (o.shares) {
    const so = randomShares(rng, o.shares[0], o.shares[1]);
    rec.share_class_shares_outstanding = so;
    rec.weighted_shares_outstanding = rng.chance(0.8) ? so : roundTo(so * rng.float(1.01, 1.6), 1000);
  }
  rec.ticker_root = o.root ?? o.ticker;
  if (o.suffix) rec.ticker_suffix = o.suffix;
  const draft: Draft = { rec };
  if (o.delisted) draft.delisted = o.delisted;
  return draft;
}

// ---- synthetic stocks --------------------------------------------------------------------------

const LISTED_EXCHANGES: ReadonlyArray<readonly [mic: string, weight: number]> = [
  ['XNAS', 55],
  ['XNYS', 35],
  ['XASE', 10],
];

function pickWeighted(rng: Rng, items: ReadonlyArray<readonly [string, number]>): string {
  const total = items.reduce((s, [, w]) => s + w, 0);
  let x = rng.int(1, total);
  for (const [v, w] of items) {
    x -= w;
    if (x <= 0) return v;
  }
  return (items[0] as readonly [string, number])[0];
}

interface HistoryPlan {
  renames: number;
  transfers: number;
  reuses: number;
}

function genCommonStocks(ctx: GenContext, count: number, plan: HistoryPlan): Company[] {
  const { rng } = ctx;
  const companies: Company[] = [];
  for (let i = 0; i < count; i++) {
    const exchange = pickWeighted(rng, LISTED_EXCHANGES);
    const company = draftCompany(ctx, { market: 'stocks', type: 'CS', exchange, listFrom: '1980-01-02', listTo: '2026-11-13', pInactive: 0.09 });
    const draft = issueRecord(ctx, {
      ticker: company.root,
      name: company.name,
      type: 'CS',
      market: 'stocks',
      exchange,
      company,
      list: company.list,
      ...(company.delisted ? { delisted: company.delisted } : {}),
      overview: 'full',
      shares: [6.6, 9.4],
    });
    companies.push(company);
    ctx.drafts.push(draft);
  }

  // Point-in-time history on a deterministic subset of active companies listed before 2018.
  const eligible = ctx.drafts.filter(
    (d) =>
      d.rec.type === 'CS' &&
      d.rec.market === 'stocks' &&
      d.delisted === undefined &&
      d.rec.valid_to === undefined &&
      d.rec.valid_from < '2018-01-01' &&
      !SHOWCASE.has(d.rec.ticker),
  );
  const chosen = rng.shuffle(eligible);
  let k = 0;
  for (let i = 0; i < plan.renames && k < chosen.length; i++, k++) renameDraft(ctx, chosen[k] as Draft);
  for (let i = 0; i < plan.transfers && k < chosen.length; i++, k++) transferDraft(ctx, chosen[k] as Draft);
  for (let i = 0; i < plan.reuses && k < chosen.length; i++, k++) reuseDraft(ctx, chosen[k] as Draft);
  return companies;
}

/** Split an active draft into two versions with different names (same issuer, ids). */
function renameDraft(ctx: GenContext, d: Draft, at?: string, newName?: string): void {
  const { rng } = ctx;
  const when = at ?? randomDate(rng, addDays(d.rec.valid_from, 365), '2026-06-30');
  const old: TickerRecord = { ...d.rec, valid_to: when };
  const name =
    newName ??
    uniqueName(ctx, () => {
      const parts = d.rec.name.split(' ');
      const stem = parts[0] as string;
      const ind = pickIndustry(rng);
      return `${stem} ${rng.pick(ind.nouns)} ${rng.pick(CORP_SUFFIXES)}`;
    });
  ctx.drafts.push({ rec: old });
  d.rec.valid_from = when;
  d.rec.name = name;
  if (d.rec.description) d.rec.description = d.rec.description.replace(old.name, name);
}

/** Split an active draft into two versions listed on different exchanges. */
function transferDraft(ctx: GenContext, d: Draft, at?: string, to?: string): void {
  const { rng } = ctx;
  const when = at ?? randomDate(rng, addDays(d.rec.valid_from, 365), '2026-06-30');
  const old: TickerRecord = { ...d.rec, valid_to: when };
  ctx.drafts.push({ rec: old });
  d.rec.valid_from = when;
  d.rec.primary_exchange = to ?? (d.rec.primary_exchange === 'XNAS' ? 'XNYS' : 'XNAS');
}

/**
 * Turn an active draft into: an old issuer that was delisted, then (later) the same symbol
 * listed by a different issuer.
 */
function reuseDraft(ctx: GenContext, d: Draft, dates?: { delisted: string; relisted: string }, newName?: string): void {
  const { rng } = ctx;
  const delisted = dates?.delisted ?? randomDate(rng, addDays(d.rec.valid_from, 400), '2023-06-30');
  const relisted = dates?.relisted ?? randomDate(rng, addDays(delisted, 180), '2026-09-30');
  // Old issuer: delisted on `delisted`, version ends when the symbol is reused.
  const old: TickerRecord = { ...d.rec, active: false, valid_to: relisted };
  ctx.drafts.push({ rec: old, delisted });
  // New issuer on the same symbol.
  const company = draftCompany(ctx, {
    market: 'stocks',
    type: 'CS',
    exchange: d.rec.primary_exchange ?? 'XNAS',
    listFrom: relisted,
    listTo: relisted,
    pInactive: 0,
  });
  const name = newName ?? company.name;
  company.name = name;
  const fresh = issueRecord(ctx, {
    ticker: d.rec.ticker,
    name,
    type: 'CS',
    market: 'stocks',
    exchange: d.rec.primary_exchange ?? 'XNAS',
    company: { ...company, list: relisted },
    list: relisted,
    overview: 'full',
    shares: [6.6, 9.0],
  });
  // draftCompany reserved a root for the new issuer that we do not use; it simply stays unused.
  d.rec = fresh.rec;
  delete d.delisted;
}

function genSpacs(ctx: GenContext, count: number): void {
  const { rng } = ctx;
  for (let i = 0; i < count; i++) {
    const nyse = rng.chance(0.3);
    const exchange = nyse ? 'XNYS' : 'XNAS';
    const company = draftCompany(ctx, {
      market: 'stocks', type: 'CS', exchange, listFrom: '2019-01-02', listTo: '2026-10-30', pInactive: 0.18, spac: true,
    });
    const common = {
      market: 'stocks' as const,
      exchange,
      company,
      list: company.list,
      ...(company.delisted ? { delisted: company.delisted } : {}),
      overview: 'basic' as const,
    };
    ctx.drafts.push(issueRecord(ctx, { ...common, ticker: company.root, name: `${company.name} Class A Ordinary Shares`, type: 'CS', shares: [7.0, 7.6] }));
    const derived: Array<readonly [type: string, suffix: string, label: string]> = [
      ['UNIT', nyse ? 'U' : 'U', 'Units'],
      ['WARRANT', nyse ? 'WS' : 'W', 'Warrants'],
    ];
    if (rng.chance(0.4)) derived.push(['RIGHT', nyse ? 'RT' : 'R', 'Rights']);
    for (const [type, suffix, label] of derived) {
      const ticker = nyse ? `${company.root}.${suffix}` : `${company.root}${suffix}`;
      if (!ctx.symbols.isFree(ticker)) continue;
      ctx.symbols.claim(ticker);
      ctx.drafts.push(issueRecord(ctx, { ...common, ticker, name: `${company.name} ${label}`, type, root: company.root, suffix }));
    }
  }
}

function genEtfs(ctx: GenContext, count: number, type: 'ETF' | 'ETN'): void {
  const { rng } = ctx;
  const families = FUND_FAMILIES.map((f) => ({
    name: f,
    cik: ctx.ids.nextCik(),
    homepage: `https://www.${slug(f)}funds.example`,
  }));
  const seen = new Set<string>();
  let made = 0;
  let guard = 0;
  while (made < count && guard++ < count * 20) {
    const fam = rng.pick(families);
    let theme = rng.pick(ETF_THEMES);
    if (theme === 'Buffer') theme = `U.S. Equity Buffer - ${rng.pick(['January', 'April', 'July', 'October'])}`;
    const lev = type === 'ETF' && rng.chance(0.06) ? rng.pick(['2X Long', '2X Short', '3X Long', '3X Short']) : '';
    const key = `${fam.name}|${theme}|${lev}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const label = type === 'ETF' ? 'ETF' : 'ETN';
    const name = `${fam.name} ${lev ? `${lev} ` : ''}${theme} ${label}`;
    if (ctx.usedNames.has(name)) continue;
    ctx.usedNames.add(name);
    const words = [fam.name.split(' ')[0] as string, ...theme.replace(/[^A-Za-z ]/g, ' ').split(/\s+/).filter((w) => w.length > 1 && w !== 'U' && w !== 'S')];
    const root = ctx.symbols.root(rng, words);
    const exchange = pickWeighted(rng, [['ARCX', 60], ['BATS', 22], ['XNAS', 18]]);
    const list = recentSkewedDate(rng, type === 'ETF' ? '1996-01-02' : '2006-01-03', '2026-11-13', 2.2);
    let delisted: string | undefined;
    if (rng.chance(0.06)) {
      const earliest = toDays(list) + 200;
      const latest = toDays('2026-10-30');
      if (earliest < latest) delisted = fromDays(Math.min(weekday(rng.int(earliest, latest)), latest));
    }
    const company: Company = {
      name: fam.name,
      root,
      cik: fam.cik,
      list,
      industry: INDUSTRIES[0] as Industry,
      homepage: fam.homepage,
      exchange,
    };
    const what =
      type === 'ETF'
        ? `Exchange-traded fund that seeks to track a ${lev ? `${lev.toLowerCase()} daily multiple of a ` : ''}${theme.toLowerCase()} index. ${SYNTHETIC_NOTE}`
        : `Exchange-traded note linked to a ${theme.toLowerCase()} index; subject to the credit risk of the issuer. ${SYNTHETIC_NOTE}`;
    ctx.drafts.push(
      issueRecord(ctx, {
        ticker: root,
        name,
        type,
        market: 'stocks',
        exchange,
        company,
        list,
        ...(delisted ? { delisted } : {}),
        overview: 'basic',
        description: what,
        shares: [5.5, 8.7],
      }),
    );
    made++;
  }
}

/** Issues hanging off fresh synthetic issuers: PFD, ADRC, OS, FUND and the rare types. */
function genOtherListed(ctx: GenContext): void {
  const { rng } = ctx;

  // Preferred stock of banks, REITs, utilities and insurers (Polygon-style "ROOTpA" symbols).
  const pfdIndustries = new Set(['6022', '6798', '4911', '6331']);
  for (let i = 0; i < 110; i++) {
    const company = draftCompany(ctx, {
      market: 'stocks', type: 'CS', exchange: 'XNYS', listFrom: '1990-01-02', listTo: '2024-12-31', pInactive: 0.05, sics: pfdIndustries,
    });
    ctx.drafts.push(
      issueRecord(ctx, {
        ticker: company.root, name: company.name, type: 'CS', market: 'stocks', exchange: 'XNYS', company, list: company.list,
        ...(company.delisted ? { delisted: company.delisted } : {}), overview: 'full', shares: [7.0, 9.0],
      }),
    );
    const series = rng.int(1, 3);
    for (let s = 0; s < series; s++) {
      const letter = 'ABCDEFGH'[s] as string;
      const ticker = `${company.root}p${letter}`;
      ctx.symbols.claim(ticker);
      const rate = (rng.int(32, 68) / 8).toFixed(3).replace(/0$/, '');
      const list = randomDate(rng, company.list, company.delisted ? addDays(company.delisted, -30) : '2026-10-30');
      ctx.drafts.push(
        issueRecord(ctx, {
          ticker, name: `${company.name} ${rate}% Series ${letter} Cumulative Preferred Stock`, type: 'PFD', market: 'stocks',
          exchange: 'XNYS', company, list, ...(company.delisted ? { delisted: company.delisted } : {}), overview: 'basic',
          root: company.root, suffix: `p${letter}`, shares: [6.3, 7.5],
        }),
      );
    }
  }

  const simple = (
    type: string, n: number, exchanges: ReadonlyArray<readonly [string, number]>, opts: { foreign?: boolean; label: (c: Company) => string; overview: 'full' | 'basic'; suffix?: string; listFrom?: string },
  ): void => {
    for (let i = 0; i < n; i++) {
      const exchange = pickWeighted(rng, exchanges);
      const company = draftCompany(ctx, {
        market: 'stocks', type, exchange, listFrom: opts.listFrom ?? '1995-01-03', listTo: '2026-11-13', pInactive: 0.06, ...(opts.foreign ? { foreign: true } : {}),
      });
      let ticker = company.root;
      if (opts.suffix) {
        ticker = `${company.root}${opts.suffix}`;
        if (!ctx.symbols.isFree(ticker)) continue;
        ctx.symbols.claim(ticker);
      }
      ctx.drafts.push(
        issueRecord(ctx, {
          ticker, name: opts.label(company), type, market: 'stocks', exchange, company, list: company.list,
          ...(company.delisted ? { delisted: company.delisted } : {}), overview: opts.overview,
          ...(opts.suffix ? { root: company.root, suffix: opts.suffix } : {}),
          shares: [6.5, 9.2],
        }),
      );
    }
  };

  simple('ADRC', 220, [['XNYS', 60], ['XNAS', 40]], { foreign: true, label: (c) => `${c.name} American Depositary Shares`, overview: 'basic' });
  simple('OS', 100, [['XNAS', 80], ['XNYS', 20]], { foreign: true, label: (c) => `${c.name} Ordinary Shares`, overview: 'basic' });
  simple('ADRP', 4, [['XNYS', 1]], { foreign: true, label: (c) => `${c.name} Sponsored ADR Preferred Shares`, overview: 'basic' });
  simple('ADRW', 3, [['XNAS', 1]], { foreign: true, label: (c) => `${c.name} ADS Warrants`, overview: 'basic', suffix: 'W' });
  simple('ADRR', 3, [['XNAS', 1]], { foreign: true, label: (c) => `${c.name} ADS Rights`, overview: 'basic', suffix: 'R' });
  simple('GDR', 4, [['XNYS', 1]], { foreign: true, label: (c) => `${c.name} Global Depositary Receipts`, overview: 'basic' });
  simple('NYRS', 4, [['XNYS', 1]], { foreign: true, label: (c) => `${c.name} New York Registry Shares`, overview: 'basic' });
  simple('LT', 5, [['XASE', 1]], { label: (c) => `${c.name.replace(/ (Inc\.|Corp\.|Corporation|Co\.|Holdings, Inc\.|Group, Inc\.)$/, '')} Liquidating Trust`, overview: 'basic' });
  simple('OTHER', 10, [['XNAS', 1]], { label: (c) => `${c.name} Contingent Value Rights`, overview: 'basic' });
  simple('BOND', 5, [['XNYS', 1]], { label: (c) => `${c.name} ${(rng.int(500, 800) / 100).toFixed(3)}% Senior Notes due ${rng.int(2028, 2065)}`, overview: 'basic' });
  simple('EQLK', 3, [['XNYS', 1]], { label: (c) => `${c.name} Equity-Linked Notes due ${rng.int(2027, 2031)}`, overview: 'basic' });

  // Fund-family products.
  const fundType = (type: string, n: number, exchanges: ReadonlyArray<readonly [string, number]>, label: (fam: string) => string, what: string): void => {
    for (let i = 0; i < n; i++) {
      const fam = rng.pick(FUND_FAMILIES);
      const name = uniqueName(ctx, () => label(rng.pick(FUND_FAMILIES)));
      const famName = FUND_FAMILIES.find((f) => name.startsWith(f)) ?? fam;
      const root = ctx.symbols.root(rng, name.split(/\s+/).filter((w) => /^[A-Za-z]/.test(w)));
      const exchange = pickWeighted(rng, exchanges);
      const list = recentSkewedDate(rng, '1998-01-02', '2026-11-13', 1.5);
      const company: Company = {
        name: famName, root, cik: ctx.ids.nextCik(), list, industry: INDUSTRIES[0] as Industry,
        homepage: `https://www.${slug(famName)}funds.example`, exchange,
      };
      ctx.drafts.push(
        issueRecord(ctx, {
          ticker: root, name, type, market: 'stocks', exchange, company, list, overview: 'basic',
          description: `${what} ${SYNTHETIC_NOTE}`, shares: [6.0, 8.3],
        }),
      );
    }
  };
  fundType('FUND', 120, [['XNYS', 1]], (f) => `${f} ${rng.pick(FUND_THEMES)} Fund`, 'Closed-end fund.');
  fundType('ETV', 20, [['ARCX', 3], ['BATS', 1]], (f) => `${f} ${rng.pick(['Physical Gold Trust', 'Physical Silver Trust', 'Physical Platinum Trust', 'Bitcoin Trust', 'Ether Trust', 'Crude Oil Fund', 'Natural Gas Fund', 'Broad Commodity Fund'])}`, 'Exchange-traded vehicle holding a commodity or digital asset.');
  fundType('SP', 10, [['ARCX', 1]], (f) => `${f} Bank Structured Notes Linked to the ${rng.pick(INDEX_THEMES)} Index`, 'Structured product.');
  fundType('AGEN', 3, [['XNYS', 1]], (f) => `${f} Farm Credit Agency ${(rng.int(300, 600) / 100).toFixed(2)}% Notes due ${rng.int(2028, 2040)}`, 'Agency bond.');
  fundType('BASKET', 2, [['ARCX', 1]], (f) => `${f} ${rng.pick(['Dividend', 'Technology', 'Energy'])} Basket Security`, 'Basket security.');
  // Single-stock ETFs on real underlyings from invented fund families.
  fundType(
    'ETS', 15, [['XNAS', 2], ['BATS', 1]],
    (f) => `${f} ${rng.pick(['2X Long', '1.5X Long', '2X Short'])} ${rng.pick(['AAPL', 'MSFT', 'NVDA', 'TSLA', 'AMZN', 'META', 'GOOGL', 'AMD', 'COIN', 'PLTR'])} Daily ETF`,
    'Single-security exchange-traded fund seeking a daily multiple of one stock\'s return.',
  );
}

// ---- synthetic OTC -------------------------------------------------------------------------------

/**
 * OTC: primary_exchange is 'OTCM' (ISO 10383 operating MIC of OTC Markets Group), and
 * currency_name is upper-case 'USD' (upstream's letter case varies between items, §2.1).
 */
function genOtc(ctx: GenContext): void {
  const { rng } = ctx;
  const one = (type: string, symbolSuffix: '' | 'F' | 'Y', foreign: boolean, n: number): void => {
    for (let i = 0; i < n; i++) {
      const company = draftCompany(ctx, {
        market: 'otc', type, exchange: 'OTCM', listFrom: '1995-01-03', listTo: '2026-11-13', pInactive: 0.12, foreign,
      });
      let ticker = company.root;
      if (symbolSuffix) {
        ticker = company.root.slice(0, 4) + symbolSuffix;
        if (!ctx.symbols.isFree(ticker)) continue;
        ctx.symbols.claim(ticker);
      }
      let name = company.name;
      if (type === 'ADRC') name = `${company.name} Unsponsored ADR`;
      if (type === 'PFD') name = `${company.name} Preferred Stock`;
      if (type === 'WARRANT') name = `${company.name} Warrants`;
      if (rng.chance(0.45)) name = name.toUpperCase().replace(/[.,]/g, '');
      ctx.drafts.push(
        issueRecord(ctx, {
          ticker, name, type, market: 'otc', exchange: 'OTCM', company, list: company.list,
          ...(company.delisted ? { delisted: company.delisted } : {}),
          overview: rng.chance(0.5) ? 'basic' : 'minimal', currencyName: 'USD', figiChance: 0.75,
          shares: [6.0, 9.3],
        }),
      );
    }
  };
  one('CS', '', false, 1500);
  one('OS', 'F', true, 450);
  one('ADRC', 'Y', true, 250);
  one('OTHER', '', false, 50);
  one('WARRANT', '', false, 20);
  one('PFD', '', false, 30);
}

// ---- synthetic indices ------------------------------------------------------------------------------

function genIndices(ctx: GenContext, n: number): void {
  const { rng } = ctx;
  const taken = new Set(REAL_INDEX_SYMBOLS);
  let made = 0;
  let guard = 0;
  while (made < n && guard++ < n * 30) {
    const provider = rng.pick(INDEX_PROVIDERS);
    const region = rng.pick(INDEX_REGIONS);
    const theme = rng.pick(INDEX_THEMES);
    const variant = rng.pick(INDEX_VARIANTS);
    const name = `${provider} ${region} ${theme} ${variant}`;
    if (ctx.usedNames.has(name)) continue;
    const initials = (s: string): string => s.split(/[\s&-]+/).filter((w) => /^[A-Za-z]/.test(w)).map((w) => w[0]!.toUpperCase()).join('');
    let code = (initials(provider).slice(0, 1) + initials(region).slice(0, 2) + initials(theme).slice(0, 2) + (variant.startsWith('Net') ? 'N' : variant.startsWith('Total') ? 'T' : variant.startsWith('Equal') ? 'E' : '')).slice(0, 6);
    while (code.length < 3) code += rng.pick(LETTER_ARR);
    let ticker = `I:${code}`;
    let tries = 0;
    while (taken.has(ticker) && tries++ < 20) ticker = `I:${code.slice(0, 4)}${rng.pick(LETTER_ARR)}${rng.pick(LETTER_ARR)}`;
    if (taken.has(ticker)) continue;
    taken.add(ticker);
    ctx.usedNames.add(name);
    const since = randomDate(rng, '1995-01-03', '2025-12-31');
    const rec: TickerRecord = {
      ticker,
      name,
      market: 'indices',
      locale: 'us',
      active: true,
      source_feed: rng.pick(['CBOE', 'Nasdaq', 'CME']),
      last_updated_utc: '',
      valid_from: since,
    };
    const draft: Draft = { rec };
    if (rng.chance(0.03)) {
      const end = randomDate(rng, addDays(since, 400), '2026-10-30');
      if (end > since) {
        draft.delisted = end;
        rec.active = false;
      }
    }
    ctx.drafts.push(draft);
    made++;
  }
}

// =============================================================================================
// Real-instrument drafts
// =============================================================================================

function realStockDrafts(): Draft[] {
  const out: Draft[] = [];
  for (const s of REAL_STOCKS) {
    const rec: TickerRecord = {
      ticker: s.t,
      name: s.name,
      market: 'stocks',
      locale: 'us',
      primary_exchange: s.ex,
      type: s.type,
      active: true,
      currency_name: 'usd',
      last_updated_utc: '',
      valid_from: s.since ?? s.list ?? SINCE_EARLY,
    };
    if (s.cik) rec.cik = s.cik;
    if (s.figi) rec.composite_figi = s.figi;
    if (s.scfigi) rec.share_class_figi = s.scfigi;
    rec.description = s.desc;
    if (s.url) rec.homepage_url = s.url;
    if (s.phone) rec.phone_number = s.phone;
    if (s.addr) rec.address = { address1: s.addr[0], city: s.addr[1], state: s.addr[2], postal_code: s.addr[3] };
    if (s.list) rec.list_date = s.list;
    if (s.so !== undefined) rec.share_class_shares_outstanding = Math.round(s.so);
    if (s.wso !== undefined) rec.weighted_shares_outstanding = Math.round(s.wso);
    rec.round_lot = 100;
    if (s.sic) {
      rec.sic_code = s.sic;
      rec.sic_description = SIC[s.sic] as string;
    }
    const dot = s.t.indexOf('.');
    rec.ticker_root = dot === -1 ? s.t : s.t.slice(0, dot);
    if (dot !== -1) rec.ticker_suffix = s.t.slice(dot + 1);

    if (s.history && s.history.length > 0) {
      let from = rec.valid_from;
      for (const h of s.history) {
        const v: TickerRecord = { ...rec, valid_from: from, valid_to: h.until };
        if (v.address) v.address = { ...v.address };
        if (h.name) v.name = h.name;
        if (h.ex) v.primary_exchange = h.ex;
        out.push({ rec: v });
        from = h.until;
      }
      rec.valid_from = from;
    }
    out.push({ rec });
  }
  for (const ix of REAL_INDICES) {
    out.push({
      rec: {
        ticker: ix.t,
        name: ix.name,
        market: 'indices',
        locale: 'us',
        active: true,
        source_feed: ix.feed,
        last_updated_utc: '',
        valid_from: ix.since,
      },
    });
  }
  return out;
}

function fxDraft(base: string, quote: string, baseName: string, quoteName: string, since: string): Draft {
  return {
    rec: {
      ticker: `C:${base}${quote}`,
      name: `${baseName} - ${quoteName}`,
      market: 'fx',
      locale: 'global',
      active: true,
      currency_symbol: quote,
      currency_name: quoteName,
      base_currency_symbol: base,
      base_currency_name: baseName,
      last_updated_utc: '',
      valid_from: since,
    },
  };
}

function fxDrafts(): Draft[] {
  const out: Draft[] = [];
  for (const [b, bn] of FIAT) {
    for (const [q, qn] of FIAT) {
      if (b === q) continue;
      out.push(fxDraft(b, q, bn, qn, b === 'EUR' || q === 'EUR' ? '1999-01-04' : FX_START));
    }
  }
  // Croatian kuna: replaced by the euro on 2023-01-01 -> inactive pairs (point-in-time demo).
  for (const [b, q] of [['HRK', 'USD'], ['USD', 'HRK'], ['HRK', 'EUR'], ['EUR', 'HRK']] as const) {
    const name = (c: string): string => (c === 'HRK' ? 'Croatian Kuna' : (FIAT_NAME.get(c) as string));
    out.push({ ...fxDraft(b, q, name(b), name(q), FX_START), delisted: '2023-01-01' });
  }
  return out;
}

function cryptoDrafts(): Draft[] {
  const out: Draft[] = [];
  const top = CRYPTO.slice(0, 16).map(([c]) => c);
  const quoteName = (q: string): string => FIAT_NAME.get(q) ?? (CRYPTO_NAME.get(q) as string);
  for (const [base, baseName, since] of CRYPTO) {
    const quotes = ['USD', 'EUR', 'GBP'];
    if (top.slice(0, 10).includes(base) && !STABLECOINS.has(base)) quotes.push('USDT');
    if (top.includes(base) && base !== 'BTC' && !STABLECOINS.has(base)) quotes.push('BTC');
    for (const q of quotes) {
      if (q === base) continue;
      const quoteSince = q === 'USDT' ? '2015-02-25' : '2013-01-02';
      const from = since > quoteSince ? since : quoteSince;
      out.push({
        rec: {
          ticker: `X:${base}${q}`,
          name: `${baseName} - ${quoteName(q)}`,
          market: 'crypto',
          locale: 'global',
          active: true,
          currency_symbol: q,
          currency_name: quoteName(q),
          base_currency_symbol: base,
          base_currency_name: baseName,
          last_updated_utc: '',
          valid_from: from,
        },
      });
    }
  }
  return out;
}

// =============================================================================================
// Assembly
// =============================================================================================

/** Showcase symbols for the point-in-time (`date`) feature; fixed names and dates. */
export const HISTORY_DEMO = {
  /** Renamed on 2021-06-01: "Harborview Data Systems Inc." -> "Harborview Cloud Inc.". */
  renamed: 'HRBV',
  /** "Velox Robotics Corp." delisted 2019-11-14; symbol reused by "Valxor Therapeutics Inc." from 2022-02-07. */
  reused: 'VLXR',
  /** "Kestrel Aerospace Corp." moved from XNAS to XNYS on 2019-08-05. */
  transferred: 'KSTL',
} as const;

const SHOWCASE: ReadonlySet<string> = new Set(Object.values(HISTORY_DEMO));

function showcaseDrafts(ctx: GenContext): void {
  const mk = (ticker: string, name: string, list: string, exchange: string, sic: string, what: string): Draft => {
    ctx.symbols.claim(ticker);
    ctx.usedNames.add(name);
    const industry = INDUSTRIES.find((i) => i.sic === sic) ?? (INDUSTRIES[0] as Industry);
    const company: Company = {
      name, root: ticker, cik: ctx.ids.nextCik(), list, industry: { ...industry, what }, homepage: `https://www.${slug(name.split(' ')[0] as string)}.example`, exchange,
    };
    const d = issueRecord(ctx, { ticker, name, type: 'CS', market: 'stocks', exchange, company, list, overview: 'full', shares: [7.5, 8.5] });
    ctx.drafts.push(d);
    return d;
  };
  const hrbv = mk('HRBV', 'Harborview Data Systems Inc.', '2011-04-14', 'XNAS', '7370', 'provides data-center hosting and managed cloud services');
  renameDraft(ctx, hrbv, '2021-06-01', 'Harborview Cloud Inc.');
  ctx.usedNames.add('Harborview Cloud Inc.');

  const vlxr = mk('VLXR', 'Velox Robotics Corp.', '2014-09-18', 'XNAS', '3559', 'builds industrial robots and automation systems');
  reuseDraft(ctx, vlxr, { delisted: '2019-11-14', relisted: '2022-02-07' }, 'Valxor Therapeutics Inc.');
  ctx.usedNames.add('Valxor Therapeutics Inc.');
  if (vlxr.rec.description) {
    vlxr.rec.description = `Valxor Therapeutics Inc. develops biologic therapies for oncology, immunology and rare diseases. ${SYNTHETIC_NOTE}`;
  }
  vlxr.rec.sic_code = '2836';
  vlxr.rec.sic_description = SIC['2836'] as string;

  const kstl = mk('KSTL', 'Kestrel Aerospace Corp.', '2009-03-12', 'XNAS', '3728', 'manufactures aircraft components and defense systems');
  transferDraft(ctx, kstl, '2019-08-05', 'XNYS');
}

let cachedDrafts: readonly Draft[] | undefined;

/** The full, as-of-independent timeline of every version (built once, then copied per call). */
function timeline(): readonly Draft[] {
  if (cachedDrafts) return cachedDrafts;
  const rng = createRng('tickerbase/universe/v1');
  const realFigis = REAL_STOCKS.flatMap((s) => [s.figi, s.scfigi].filter((x): x is string => typeof x === 'string'));
  const ctx: GenContext = {
    rng,
    symbols: new SymbolAllocator(RESERVED_SYMBOLS),
    ids: new IdFactory(rng.fork('ids'), realFigis),
    usedNames: new Set(REAL_STOCKS.map((s) => s.name)),
    drafts: [],
  };
  showcaseDrafts(ctx);
  genCommonStocks(ctx, 4600, { renames: 60, transfers: 25, reuses: 20 });
  genSpacs(ctx, 150);
  genEtfs(ctx, 900, 'ETF');
  genEtfs(ctx, 40, 'ETN');
  genOtherListed(ctx);
  genOtc(ctx);
  genIndices(ctx, 120);
  syntheticCount = ctx.drafts.length;
  const all = [...realStockDrafts(), ...fxDrafts(), ...cryptoDrafts()];
  realCount = all.length;
  syntheticSymbols = new Set(ctx.drafts.map((d) => d.rec.ticker));
  all.push(...ctx.drafts);
  cachedDrafts = all;
  return all;
}

let syntheticCount = 0;
let realCount = 0;
let syntheticSymbols: ReadonlySet<string> = new Set();

function cmpBytes(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function copyRecord(r: TickerRecord): TickerRecord {
  const out: TickerRecord = { ...r };
  if (r.address) out.address = { ...r.address };
  if (r.branding) out.branding = { ...r.branding };
  return out;
}

function materialize(drafts: readonly Draft[], asOf: string): TickerRecord[] {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(asOf) || Number.isNaN(Date.parse(`${asOf}T00:00:00Z`))) {
    throw new RangeError(`demoTickers: invalid asOf date ${asOf}`);
  }
  const out: TickerRecord[] = [];
  for (const d of drafts) {
    if (d.rec.valid_from > asOf) continue; // did not exist yet
    const rec = copyRecord(d.rec);
    if (rec.list_date !== undefined && rec.list_date > asOf) delete rec.list_date;
    if (rec.valid_to !== undefined && rec.valid_to > asOf) delete rec.valid_to; // successor not known yet
    const delisted = d.delisted !== undefined && d.delisted <= asOf ? d.delisted : undefined;
    if (delisted) {
      rec.active = false;
      rec.delisted_utc = utc(delisted);
    } else {
      rec.active = true;
      delete rec.delisted_utc;
    }
    if (rec.valid_to !== undefined) {
      rec.last_updated_utc = utc(rec.valid_to);
    } else if (delisted) {
      rec.last_updated_utc = utc(delisted);
    } else {
      rec.last_updated_utc = utc(asOf);
    }
    out.push(rec);
  }
  out.sort((a, b) => cmpBytes(a.ticker, b.ticker) || cmpBytes(a.valid_from, b.valid_from));
  return out;
}

/**
 * The whole demo universe as known on `asOf` (YYYY-MM-DD): every version of every ticker, sorted
 * by ticker (byte order) then valid_from. Versions that start after `asOf` are left out, a version
 * whose successor starts after `asOf` is the current one, and delistings after `asOf` have not
 * happened yet. Deterministic: the same `asOf` always yields deep-equal, byte-identical output.
 */
export function demoTickers(asOf: string = DEFAULT_AS_OF): TickerRecord[] {
  return materialize(timeline(), asOf);
}

/** Only the real instruments (real stocks/ETFs/ADRs, real indices, FX and crypto pairs). */
export function realTickers(asOf: string = DEFAULT_AS_OF): TickerRecord[] {
  const drafts = timeline();
  return materialize(drafts.slice(0, realCount), asOf);
}

/** Only the synthetic long tail (invented issuers: stocks, OTC and indices). */
export function syntheticTickers(asOf: string = DEFAULT_AS_OF): TickerRecord[] {
  const drafts = timeline();
  return materialize(drafts.slice(realCount, realCount + syntheticCount), asOf);
}

/** True when `ticker` belongs to the synthetic long tail. */
export function isSyntheticTicker(ticker: string): boolean {
  timeline();
  return syntheticSymbols.has(ticker);
}
