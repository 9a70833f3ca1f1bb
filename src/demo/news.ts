// Demo news, social posts and branding images. All synthetic: publishers, authors,
// headlines, posts and logos are invented (publisher sites use the reserved .example domain);
// only the ticker symbols and company names are real. Deterministic: every draw comes from a
// seeded PRNG, ids are hashes of their position, so a re-run replaces rows with equal ones.
//
// - News: about 1,500 × scale articles over the ~6 months up to the demo's as-of day, on the
//   real-name stocks and ETFs (the biggest names more often), each with a publisher, keywords and
//   one insight per ticker. Each ticker has a slowly drifting "mood" so that its sentiment runs
//   in streaks rather than flipping at random.
// - Social posts: about 4,000 × scale over the last 60 days (so that a 30d ranking has a previous
//   window), busier in US hours, with a burst of chatter about a few names in the final days.
// - Branding: an SVG logo and a PNG icon per name in BRANDED, written to the branding directory
//   (opts.brandingDir; skipped when absent), linked from the tickers' `branding`.
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DAY_MS, formatInstant } from '../domain/rfc3339.js';
import type { Store } from '../store/index.js';
import type { NewsArticle, NewsInsight, NewsPublisher, Sentiment } from '../store/repos/news.js';
import type { SocialPost } from '../store/repos/social.js';
import type { DemoStep } from './step.js';
import { encodePng, type Rgba } from './png.js';
import { createRng, hash32, type Rng } from './random.js';
import { REAL_STOCK_SYMBOLS, realTickers } from './universe.js';

const NEWS_DAYS = 183;
const POST_DAYS = 60;
const ARTICLES = 1500;
const POSTS = 4000;
const BATCH = 1000;

/** Names that get demo logos and icons. */
export const BRANDED = ['AAPL', 'MSFT', 'AMZN', 'GOOGL', 'META', 'NVDA', 'TSLA', 'AMD', 'NFLX', 'JPM', 'SPY', 'QQQ'] as const;
/** The most-covered names: drawn three times as often as the rest. */
const HEADLINERS = new Set(['AAPL', 'MSFT', 'AMZN', 'GOOGL', 'META', 'NVDA', 'TSLA', 'AMD', 'NFLX', 'AVGO', 'JPM', 'COIN', 'PLTR', 'SPY', 'QQQ']);
/** Names with a burst of social chatter in the last days (a visible mentions_change). */
const BUZZ = ['NVDA', 'PLTR', 'COIN'];

const PUBLISHERS: NewsPublisher[] = [
  ['Market Ledger', 'marketledger.example'],
  ['Street Wire Daily', 'streetwire.example'],
  ['The Ticker Tape', 'tickertape.example'],
  ['Capital Desk', 'capitaldesk.example'],
  ['Open Bell Report', 'openbell.example'],
  ['Quarterly Signal', 'quarterlysignal.example'],
].map(([name, domain]) => ({
  name: name!,
  homepage_url: `https://www.${domain}/`,
  logo_url: `https://www.${domain}/assets/logo.svg`,
  favicon_url: `https://www.${domain}/favicon.ico`,
}));

const FIRST = ['Alex', 'Jordan', 'Sam', 'Morgan', 'Taylor', 'Casey', 'Riley', 'Jamie', 'Avery', 'Quinn', 'Dana', 'Robin'];
const LAST = ['Hartwell', 'Okafor', 'Lindqvist', 'Moreau', 'Castellano', 'Whitcombe', 'Nakamura', 'Brennan', 'Ferreira', 'Adeyemi', 'Kowalski', 'Sato'];

interface Story {
  title: string;
  description: string;
  reasoning: string;
  keywords: string[];
}
type StoryTemplate = (name: string) => Story;

const STORIES: Record<Sentiment, StoryTemplate[]> = {
  positive: [
    (n) => ({ title: `${n} beats quarterly estimates as demand accelerates`, description: `${n} reported revenue and earnings above analyst expectations and raised its full-year outlook.`, reasoning: `${n} beat estimates and raised guidance, which the article presents as a clear positive.`, keywords: ['earnings', 'guidance', 'revenue'] }),
    (n) => ({ title: `Analysts lift price targets on ${n} after upbeat investor day`, description: `Several brokers raised their targets on ${n} following new long-term margin goals.`, reasoning: `Higher analyst price targets and confident long-term goals point to a favourable view of ${n}.`, keywords: ['analyst ratings', 'price target', 'investor day'] }),
    (n) => ({ title: `${n} unveils new product line, shares climb`, description: `${n} introduced a new range of products that reviewers called a meaningful upgrade.`, reasoning: `The launch was well received and the shares rose, a positive signal for ${n}.`, keywords: ['product launch', 'innovation'] }),
    (n) => ({ title: `${n} announces larger buyback and dividend increase`, description: `The board of ${n} approved an expanded share repurchase programme and a higher quarterly payout.`, reasoning: `Returning more capital to shareholders signals confidence in ${n}'s cash generation.`, keywords: ['buybacks', 'dividends', 'capital return'] }),
  ],
  negative: [
    (n) => ({ title: `${n} slides as supply constraints weigh on outlook`, description: `${n} warned that component shortages could limit shipments in the coming quarter.`, reasoning: `Supply problems and a weaker outlook are presented as headwinds for ${n}.`, keywords: ['supply chain', 'guidance'] }),
    (n) => ({ title: `${n} misses revenue estimates; shares fall after hours`, description: `Quarterly revenue at ${n} came in below consensus, and management trimmed its forecast.`, reasoning: `A revenue miss and a lower forecast make the coverage of ${n} negative.`, keywords: ['earnings', 'revenue', 'guidance'] }),
    (n) => ({ title: `Regulators open inquiry into ${n}'s business practices`, description: `Authorities have asked ${n} for documents as part of a review of competition in its main market.`, reasoning: `A regulatory inquiry adds legal and financial risk for ${n}.`, keywords: ['regulation', 'antitrust', 'legal'] }),
    (n) => ({ title: `Analyst downgrades ${n}, citing stretched valuation`, description: `A broker cut ${n} to underperform, arguing that expectations already price in years of growth.`, reasoning: `The downgrade expresses a bearish view on ${n}'s shares.`, keywords: ['analyst ratings', 'valuation'] }),
  ],
  neutral: [
    (n) => ({ title: `${n} to report quarterly results next week: what to watch`, description: `Investors will look at margins and guidance when ${n} reports.`, reasoning: `The article previews ${n}'s results without taking a view.`, keywords: ['earnings', 'preview'] }),
    (n) => ({ title: `${n} names new chief financial officer`, description: `${n} appointed a new CFO, effective next month, as part of a planned transition.`, reasoning: `A planned leadership change is reported factually, with no clear impact on ${n}.`, keywords: ['leadership', 'management'] }),
    (n) => ({ title: `How ${n} fits into a market rotating between sectors`, description: `Fund managers discussed where ${n} sits as money moves between growth and value stocks.`, reasoning: `${n} is mentioned as part of a broad market discussion.`, keywords: ['markets', 'sector rotation', 'interest rates'] }),
  ],
};

const FUND_STORIES: Record<Sentiment, StoryTemplate[]> = {
  positive: [
    (n) => ({ title: `${n} draws heavy inflows as investors add exposure`, description: `Investors put fresh money into ${n} for a third straight week.`, reasoning: `Sustained inflows show growing demand for ${n}.`, keywords: ['fund flows', 'ETFs'] }),
    (n) => ({ title: `${n} closes at a record as its holdings rally`, description: `Broad gains among its holdings lifted ${n} to a new closing high.`, reasoning: `A record close reflects strength in ${n}'s holdings.`, keywords: ['markets', 'record high', 'ETFs'] }),
  ],
  negative: [
    (n) => ({ title: `Investors pull money from ${n} as risk appetite fades`, description: `${n} saw its largest weekly outflow in months as investors turned defensive.`, reasoning: `Large outflows point to waning demand for ${n}.`, keywords: ['fund flows', 'risk sentiment'] }),
    (n) => ({ title: `${n} drops as rate worries hit its holdings`, description: `Rising yields weighed on the holdings of ${n}, which fell for a fourth session.`, reasoning: `The fund fell on rate concerns, a negative read for ${n}.`, keywords: ['interest rates', 'markets'] }),
  ],
  neutral: [
    (n) => ({ title: `What changes in ${n} after the quarterly rebalance`, description: `The index behind ${n} added and removed a handful of names at its scheduled rebalance.`, reasoning: `A routine rebalance of ${n} is described without a view.`, keywords: ['index rebalance', 'ETFs'] }),
    (n) => ({ title: `${n} volume jumps around options expiration`, description: `Trading in ${n} rose sharply as monthly options expired.`, reasoning: `Heavy but routine trading in ${n} is reported factually.`, keywords: ['options', 'trading volume'] }),
  ],
};

/** "Apple Inc." → "Apple", "The Walt Disney Company" → "Walt Disney", "Merck & Co., Inc." → "Merck". */
export function shortName(name: string): string {
  let n = name.replace(/ (Class [A-C]|American Depositary Shares)$/, '').replace(/^The /, '');
  for (;;) {
    const next = n.replace(/,? (Inc\.|Corporation|Incorporated|Company|Limited|plc|& Co\.)$/, '');
    if (next === n) return n;
    n = next;
  }
}

const POST_TEXT: Record<'bull' | 'bear' | 'flat', ((t: string) => string)[]> = {
  bull: [
    (t) => `$${t} looking strong into the close, adding on dips`,
    (t) => `Long $${t}. Numbers next quarter should surprise to the upside`,
    (t) => `$${t} breaking out on volume, finally`,
  ],
  bear: [
    (t) => `Trimmed my $${t} position today, valuation feels stretched`,
    (t) => `Not touching $${t} until this selling settles`,
    (t) => `Puts on $${t} paying off this week`,
  ],
  flat: [
    (t) => `Anyone else watching $${t} here? Waiting for the earnings date`,
    (t) => `$${t} flat all day, options volume looks normal`,
    (t) => `What is the consensus on $${t} into next week?`,
  ],
};
const SOURCES = ['forum', 'microblog', 'blog'] as const;
const SYLLABLES = ['ka', 'lo', 'mi', 'ra', 'to', 'zen', 'vo', 'qui', 'be', 'da', 'nu', 'sy'];

const hex = (text: string) => createHash('sha256').update(text).digest('hex');

function slug(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 70);
}

/** A ticker's sentiment drifts as a bounded random walk over the days, seeded per ticker. */
function moodOf(rng: Rng, days: number): Float64Array {
  const mood = new Float64Array(days);
  let m = rng.normal(0, 0.4);
  for (let d = 0; d < days; d++) {
    m = Math.max(-1, Math.min(1, 0.97 * m + rng.normal(0, 0.12)));
    mood[d] = m;
  }
  return mood;
}

function weightedPicker(rng: Rng, symbols: readonly string[]): () => string {
  const pool = symbols.flatMap((s) => (HEADLINERS.has(s) ? [s, s, s] : [s]));
  return () => rng.pick(pool);
}

/** A plausible publication instant on day `dayStart`: mostly 11:00-23:00 UTC (US hours), weekdays favoured. */
function instantOn(rng: Rng, dayStart: number): number {
  const hour = rng.chance(0.85) ? rng.int(11, 22) : rng.int(0, 23);
  return dayStart + hour * 3_600_000 + rng.int(0, 59) * 60_000 + rng.int(0, 59) * 1000;
}

function sentimentFor(rng: Rng, mood: number): Sentiment {
  const x = mood + rng.normal(0, 0.45);
  return x > 0.3 ? 'positive' : x < -0.3 ? 'negative' : 'neutral';
}

export function demoArticles(asOf: string, scale: number): { article: NewsArticle; publishedMs: number }[] {
  const rng = createRng(`demo-news/${asOf}`);
  const current = realTickers(asOf).filter((t) => t.valid_to === undefined);
  const names = new Map(current.map((t) => [t.ticker, t.name] as const));
  const funds = new Set(current.filter((t) => t.type === 'ETF').map((t) => t.ticker));
  const symbols = REAL_STOCK_SYMBOLS.filter((s) => names.has(s));
  const endDay = Date.parse(`${asOf}T00:00:00Z`);
  const firstDay = endDay - (NEWS_DAYS - 1) * DAY_MS;
  const moods = new Map(symbols.map((s) => [s, moodOf(rng.fork(`mood/${s}`), NEWS_DAYS)]));
  const pick = weightedPicker(rng, symbols);
  const count = Math.max(50, Math.round(ARTICLES * scale));
  const out: { article: NewsArticle; publishedMs: number }[] = [];
  for (let i = 0; i < count; i++) {
    let day = rng.int(0, NEWS_DAYS - 1);
    const dow = new Date(firstDay + day * DAY_MS).getUTCDay();
    if ((dow === 0 || dow === 6) && rng.chance(0.7)) day = Math.max(0, day - (dow === 0 ? 2 : 1)); // fewer weekend stories
    const publishedMs = instantOn(rng, firstDay + day * DAY_MS);
    const primary = pick();
    const tickers = [primary];
    const extra = rng.chance(0.3) ? rng.int(1, 2) : 0;
    for (let k = 0; k < extra; k++) {
      const other = rng.pick(symbols);
      if (!tickers.includes(other)) tickers.push(other);
    }
    const sentiment = sentimentFor(rng, moods.get(primary)![day]!);
    const story = rng.pick((funds.has(primary) ? FUND_STORIES : STORIES)[sentiment])(shortName(names.get(primary)!));
    const insights: NewsInsight[] = tickers.map((t, k) => {
      if (k === 0) return { ticker: t, sentiment, sentiment_reasoning: story.reasoning };
      const s = sentimentFor(rng, moods.get(t)![day]! * 0.5);
      const other = shortName(names.get(t)!);
      return { ticker: t, sentiment: s, sentiment_reasoning: s === 'neutral' ? `${other} is mentioned for comparison only.` : `The article draws a ${s} read-across for ${other}.` };
    });
    const publisher = rng.pick(PUBLISHERS);
    const id = hex(`demo-news/${asOf}/${i}`);
    const base = publisher.homepage_url.replace(/\/$/, '');
    const path = `${new Date(publishedMs).toISOString().slice(0, 10).replace(/-/g, '/')}/${slug(story.title)}-${id.slice(0, 8)}`;
    const keywords = [...story.keywords, ...(rng.chance(0.4) ? [rng.pick(['AI', 'interest rates', 'consumer spending', 'cloud', 'energy prices', 'China'])] : [])];
    out.push({
      publishedMs,
      article: {
        id,
        publisher,
        title: story.title,
        author: rng.chance(0.15) ? `${publisher.name} Staff` : `${rng.pick(FIRST)} ${rng.pick(LAST)}`,
        published_utc: formatInstant(publishedMs),
        article_url: `${base}/markets/${path}`,
        tickers,
        ...(rng.chance(0.5) ? { amp_url: `${base}/amp/markets/${path}` } : {}),
        ...(rng.chance(0.8) ? { image_url: `${base}/images/${id.slice(0, 16)}.jpg` } : {}),
        description: story.description,
        keywords: [...new Set(keywords)],
        insights,
      },
    });
  }
  return out;
}

export function demoPosts(asOf: string, scale: number): { post: SocialPost; createdMs: number }[] {
  const rng = createRng(`demo-social/${asOf}`);
  const symbols = REAL_STOCK_SYMBOLS;
  const end = Date.parse(`${asOf}T00:00:00Z`) + DAY_MS;
  const start = end - POST_DAYS * DAY_MS;
  const moods = new Map(symbols.map((s) => [s, moodOf(rng.fork(`mood/${s}`), POST_DAYS)]));
  const pick = weightedPicker(rng, symbols);
  const count = Math.max(100, Math.round(POSTS * scale));
  const out: { post: SocialPost; createdMs: number }[] = [];
  for (let i = 0; i < count; i++) {
    // The last 10% of posts are the burst: BUZZ names in the final two days.
    const burst = i >= count * 0.9;
    const createdMs = burst ? end - rng.int(1, 2 * 86_400) * 1000 : instantOn(rng, start + rng.int(0, POST_DAYS - 1) * DAY_MS);
    const primary = burst ? rng.pick(BUZZ) : pick();
    const tickers = rng.chance(0.15) ? [primary, rng.pick(symbols)].filter((t, k, a) => a.indexOf(t) === k) : [primary];
    const day = Math.min(POST_DAYS - 1, Math.max(0, Math.floor((createdMs - start) / DAY_MS)));
    const score = Math.max(-1, Math.min(1, moods.get(primary)![day]! + rng.normal(burst ? 0.3 : 0, 0.5)));
    const tone = score > 0.25 ? 'bull' : score < -0.25 ? 'bear' : 'flat';
    const handle = `${rng.pick(SYLLABLES)}${rng.pick(SYLLABLES)}${rng.pick(SYLLABLES)}${rng.int(1, 999)}`;
    out.push({
      createdMs,
      post: {
        id: `demo-${hex(`demo-social/${asOf}/${i}`).slice(0, 24)}`,
        source: rng.pick(SOURCES),
        author: handle,
        created_utc: formatInstant(createdMs),
        text: rng.pick(POST_TEXT[tone])(primary) + (tickers.length > 1 ? ` (also $${tickers[1]})` : ''),
        tickers,
        ...(rng.chance(0.8) ? { sentiment: Math.round(score * 100) / 100 } : {}),
      },
    });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Branding images: a rounded tile with the symbol (SVG logo) and a disc on a tile (PNG icon),
// in colours derived from the symbol.

function colourOf(ticker: string): { r: number; g: number; b: number; hex: string } {
  const h = hash32(`brand/${ticker}`);
  // Mid-dark, saturated colours: each channel 40..200 so white text stays readable.
  const [r, g, b] = [40 + (h & 0x7f), 40 + ((h >>> 8) & 0x7f), 40 + ((h >>> 16) & 0x7f)];
  return { r, g, b, hex: `#${[r, g, b].map((c) => c.toString(16).padStart(2, '0')).join('')}` };
}

const xmlEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function logoSvg(ticker: string, name: string): string {
  const c = colourOf(ticker);
  const width = 96 + ticker.length * 22;
  return `<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="64" viewBox="0 0 ${width} 64" role="img" aria-label="${xmlEscape(name)} (demo logo)">
  <rect x="0" y="0" width="${width}" height="64" rx="12" fill="${c.hex}"/>
  <circle cx="32" cy="32" r="18" fill="#ffffff" fill-opacity="0.85"/>
  <text x="60" y="42" font-family="Helvetica, Arial, sans-serif" font-size="28" font-weight="700" fill="#ffffff">${xmlEscape(ticker)}</text>
</svg>
`;
}

export function iconPng(ticker: string, size = 64): Buffer {
  const c = colourOf(ticker);
  const bg: Rgba = [c.r, c.g, c.b, 255];
  const fg: Rgba = [255, 255, 255, 230];
  const clear: Rgba = [0, 0, 0, 0];
  const mid = (size - 1) / 2;
  const corner = size * 0.2;
  return encodePng(size, size, (x, y) => {
    // Rounded square: transparent outside the corner arcs.
    const dx = Math.max(corner - x, x - (size - 1 - corner), 0);
    const dy = Math.max(corner - y, y - (size - 1 - corner), 0);
    if (dx * dx + dy * dy > corner * corner) return clear;
    const r = Math.hypot(x - mid, y - mid);
    return r < size * 0.28 ? fg : bg;
  });
}

export const brandFileBase = (ticker: string) => ticker.toLowerCase().replace(/[^a-z0-9]+/g, '-');

/** Writes the images into `dir` and returns the branding links for each ticker. */
export function writeBranding(dir: string, tickers: { ticker: string; name: string }[]): Map<string, { logo_url: string; icon_url: string }> {
  mkdirSync(dir, { recursive: true });
  const links = new Map<string, { logo_url: string; icon_url: string }>();
  for (const t of tickers) {
    const base = brandFileBase(t.ticker);
    writeFileSync(join(dir, `${base}_logo.svg`), logoSvg(t.ticker, t.name));
    writeFileSync(join(dir, `${base}_icon.png`), iconPng(t.ticker));
    links.set(t.ticker, {
      logo_url: `/v1/reference/company-branding/logo/${base}_logo.svg`,
      icon_url: `/v1/reference/company-branding/icon/${base}_icon.png`,
    });
  }
  return links;
}

async function linkBranding(store: Store, links: Map<string, { logo_url: string; icon_url: string }>): Promise<number> {
  const updated = [];
  for (const [ticker, link] of links) {
    const t = await store.reference.getTicker(ticker);
    if (t) updated.push({ ...t, branding: { ...t.branding, ...link } });
  }
  await store.reference.upsertTickers(updated);
  return updated.length;
}

export const newsStep: DemoStep = {
  name: 'news, social posts and branding',
  async run(store, opts) {
    const articles = demoArticles(opts.asOf, opts.scale);
    for (let i = 0; i < articles.length; i += BATCH) await store.news.upsertArticles(articles.slice(i, i + BATCH));
    const posts = demoPosts(opts.asOf, opts.scale);
    for (let i = 0; i < posts.length; i += BATCH) await store.social.upsertPosts(posts.slice(i, i + BATCH));
    let branding = 'no branding directory given: images skipped';
    if (opts.brandingDir) {
      const names = new Map(realTickers(opts.asOf).filter((t) => t.valid_to === undefined).map((t) => [t.ticker, t.name] as const));
      const links = writeBranding(opts.brandingDir, BRANDED.filter((t) => names.has(t)).map((t) => ({ ticker: t, name: names.get(t)! })));
      const linked = await linkBranding(store, links);
      branding = `${links.size * 2} branding images in ${opts.brandingDir} (${linked} tickers linked)`;
    }
    return `${articles.length} articles, ${posts.length} social posts, ${branding}`;
  },
};
