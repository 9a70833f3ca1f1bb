// Word lists the synthetic long tail draws names, industries, addresses and symbols from. The
// cities are real (with a downtown ZIP and area code); every other word is invented or generic.

export const NAME_STEMS: readonly string[] = [
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

export interface Industry {
  nouns: readonly string[];
  sic: string;
  what: string;
  weight: number;
}

export const INDUSTRIES: readonly Industry[] = [
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
export const INDUSTRY_TOTAL_WEIGHT = INDUSTRIES.reduce((s, i) => s + i.weight, 0);

export const CORP_SUFFIXES: readonly string[] = ['Inc.', 'Inc.', 'Inc.', 'Corp.', 'Corporation', 'Holdings, Inc.', 'Group, Inc.', 'Co.'];
export const FOREIGN_SUFFIXES: readonly string[] = ['plc', 'Ltd.', 'Limited', 'S.A.', 'N.V.', 'AG', 'SE', 'A/S', 'Holdings Ltd.'];

/** Fictional fund families: name, short brand used in symbols. */
export const FUND_FAMILIES: readonly string[] = [
  'Northgate', 'Harborline', 'Clearwater Select', 'Bluecrest', 'Summitview', 'Ridgeway', 'Ironbridge',
  'Meridian Peak', 'Lakemont', 'Copperhill', 'Oakhurst', 'Stonebridge', 'Kestrel', 'Aventra', 'Galdera',
  'Lumora', 'Pexira', 'Rivalta', 'Talvera', 'Zentara', 'Waverly', 'Osprey', 'Palisade', 'Timberline',
  'Beacon Hill', 'Driftwood', 'Fernhill', 'Graystone', 'Marlowe', 'Vireo',
];

export const ETF_THEMES: readonly string[] = [
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

export const FUND_THEMES: readonly string[] = [
  'Municipal Income', 'Global Income', 'Equity Income', 'Premium Income', 'Credit Opportunities', 'Utility & Infrastructure',
  'Real Estate Income', 'Floating Rate Income', 'Tax-Advantaged Dividend', 'High Income', 'Enhanced Equity', 'Emerging Markets Debt',
];

export const INDEX_PROVIDERS: readonly string[] = ['Harborline', 'Meridian Peak', 'Clearwater', 'Northgate', 'Kestrel', 'Talvera', 'Summitview'];
export const INDEX_REGIONS: readonly string[] = ['US', 'Global', 'Developed ex-US', 'Emerging Markets', 'Europe', 'Asia Pacific', 'North America'];
export const INDEX_THEMES: readonly string[] = [
  'Large Cap', 'Mid Cap', 'Small Cap', 'Semiconductor', 'Software', 'Banks', 'Biotechnology', 'Clean Energy', 'Dividend',
  'Low Volatility', 'Momentum', 'Quality', 'Value', 'Growth', 'Infrastructure', 'Real Estate', 'Oil & Gas', 'Gold Miners',
  'Consumer Brands', 'Cybersecurity', 'Robotics', 'Water', 'Aerospace & Defense', 'Healthcare Innovation',
];
export const INDEX_VARIANTS: readonly string[] = ['Index', 'Index', 'Total Return Index', 'Net Total Return Index', 'Equal Weight Index'];

/** Real cities with a downtown ZIP and area code; streets and numbers are invented. */
export const CITIES: ReadonlyArray<readonly [city: string, state: string, zip: string, area: string]> = [
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
export const STREET_NAMES: readonly string[] = [
  'Market', 'Commerce', 'Park', 'Lake', 'Oak', 'Cedar', 'Harbor', 'Innovation', 'Technology', 'Research', 'Enterprise',
  'Congress', 'Liberty', 'Meridian', 'Summit', 'Riverfront', 'Franklin', 'Jefferson', 'Madison', 'Lincoln', 'Gateway',
];
export const STREET_TYPES: readonly string[] = ['Street', 'Avenue', 'Boulevard', 'Drive', 'Parkway', 'Way', 'Place', 'Plaza'];

/** Four-letter words a synthetic symbol never spells. */
export const BLOCKED_WORDS = new Set([
  'ANAL', 'ANUS', 'ARSE', 'BOOB', 'CLIT', 'COCK', 'COON', 'CRAP', 'CUNT', 'DAMN', 'DICK', 'DYKE', 'FAGS', 'FUCK',
  'GOOK', 'HOMO', 'JIZZ', 'KIKE', 'NAZI', 'PISS', 'POOP', 'PORN', 'PUSS', 'RAPE', 'SHIT', 'SLUT', 'SPIC', 'TITS',
  'TWAT', 'WANK', 'WHOR', 'DUMB', 'DEAD', 'KILL', 'HELL', 'SCAM', 'FAKE', 'FRAU', 'BOMB', 'DRUG',
]);

/** The industry of every synthetic SPAC (SIC 6770, blank checks). */
export const SPAC_INDUSTRY: Industry = {
  nouns: ['Acquisition'],
  sic: '6770',
  what: 'is a blank-check company formed to effect a merger or similar business combination',
  weight: 0,
};

/** Listing venues (MIC) of synthetic common stock, with their weights. */
export const LISTED_EXCHANGES: ReadonlyArray<readonly [mic: string, weight: number]> = [
  ['XNAS', 55],
  ['XNYS', 35],
  ['XASE', 10],
];
