import { describe, expect, it } from 'vitest';
import { BUILTIN_PLANS } from '../../src/server/plans.js';
import { familyName } from '../../src/web/lib/families.js';
import { chartSeconds, exchangeZone } from '../../src/web/lib/market-time.js';
import { planSummary } from '../../src/web/lib/plan-text.js';
import { rankSearch } from '../../src/web/lib/search-rank.js';
import { exampleRange, feedUrl, quickstartSnippets } from '../../src/web/lib/snippets.js';

// The dashboard's pure logic: search ranking, usage families, plan texts, quickstart dates and
// exchange time.

const hit = (ticker: string, name: string) => ({ ticker, name });

describe('ticker search ranking', () => {
  it('puts the exact symbol first, then symbol prefixes, then names starting with the text, then name words, then the rest', () => {
    const hits = [hit('PINE', 'Pineapple Corp'), hit('GAPL', 'Green Apple Farms'), hit('APLE', 'Apple Hospitality REIT'), hit('APPLEX', 'Other'), hit('AAPL', 'Apple Inc.'), hit('APPLE', 'Something')];
    expect(rankSearch(hits, 'apple').map((h) => h.ticker)).toEqual(['APPLE', 'APPLEX', 'AAPL', 'APLE', 'GAPL', 'PINE']);
  });

  it('finds X:BTCUSD first for "bitcoin" among every bitcoin pair, and EUR pairs first for "euro"', () => {
    const btc = ['AUD', 'BRL', 'CAD', 'EUR', 'GBP', 'JPY', 'USD', 'USDT'].map((q) => hit(`X:BTC${q}`, `Bitcoin - ${q}`));
    const bch = hit('X:BCHUSD', 'Bitcoin Cash - United States Dollar');
    expect(rankSearch([bch, ...btc], 'bitcoin')[0]!.ticker).toBe('X:BTCUSD');
    const fx = [hit('C:AEDEUR', 'United Arab Emirates Dirham - Euro'), hit('C:AUDEUR', 'Australian Dollar - Euro'), hit('C:EURAED', 'Euro - United Arab Emirates Dirham'), hit('C:EURUSD', 'Euro - United States Dollar')];
    expect(rankSearch(fx, 'euro').map((h) => h.ticker)).toEqual(['C:EURUSD', 'C:EURAED', 'C:AUDEUR', 'C:AEDEUR']);
  });

  it('matches a symbol without its market prefix: "btcusd" is X:BTCUSD exactly', () => {
    expect(rankSearch([hit('X:BTCUSDT', 'Bitcoin - Tether'), hit('X:BTCUSD', 'Bitcoin - United States Dollar')], 'btcusd')[0]!.ticker).toBe('X:BTCUSD');
  });
});

describe('usage families', () => {
  it('names route templates by data family, on every base', () => {
    expect(familyName('/v2/aggs/ticker/:ticker/range/:multiplier/:timespan/:from/:to')).toBe('Aggregates (bars)');
    expect(familyName('/upstream/v2/aggs/ticker/:ticker/prev')).toBe('Aggregates (bars)');
    expect(familyName('/v3/trades/:ticker')).toBe('Trades');
    expect(familyName('/v3/quotes/:ticker')).toBe('Quotes');
    expect(familyName('/v3/reference/tickers/:ticker')).toBe('Reference data');
    expect(familyName('/v3/snapshot/options/:underlyingAsset')).toBe('Snapshots');
    expect(familyName('/v2/reference/news')).toBe('News');
    expect(familyName('/stocks/filings/vX/index')).toBe('Filings');
    expect(familyName('/something/new')).toBe('Other endpoints');
  });
});

describe('plan texts', () => {
  it('built-in descriptions name data sets only, so they never contradict the timeframe, history or rate shown from the fields', () => {
    for (const [name, p] of Object.entries(BUILTIN_PLANS)) {
      expect(p.description, name).not.toMatch(/end-of-day|end of day|delayed|real-time|realtime|years? of history|requests?\/|unlimited/i);
    }
    expect(planSummary(BUILTIN_PLANS.free!)).toBe('15-minute delayed · 2 years of history · 5 requests per minute');
    expect(planSummary(BUILTIN_PLANS.business!)).toBe('Real-time · all history · unlimited requests');
  });
});

describe('quickstart examples', () => {
  const today = Date.parse('2026-12-07T10:00:00Z'); // a Monday
  it('reads a range the plan can read: ending on the last weekday before today, inside the history', () => {
    expect(exampleRange({ timeframe: 'delayed', history_years: 2 }, today)).toEqual({ from: '2026-11-04', to: '2026-12-04' });
    expect(exampleRange({ timeframe: 'end_of_day', history_years: 0.05 }, today)).toEqual({ from: '2026-11-21', to: '2026-12-04' });
  });

  it('points the WebSocket example at the feed the plan may use, and never holds a 2024 date', () => {
    expect(feedUrl('http://127.0.0.1:8080', { timeframe: 'delayed', history_years: 2 })).toBe('ws://127.0.0.1:8080/delayed/stocks');
    expect(feedUrl('https://md.example.com', { timeframe: 'realtime', history_years: null })).toBe('wss://md.example.com/stocks');
    const all = quickstartSnippets({ clientBase: 'http://h/upstream', publicUrl: 'http://h', key: 'YOUR_KEY', plan: { timeframe: 'delayed', history_years: 2 }, todayMs: today });
    expect(all.map((s) => s.title)).toContain('WebSocket (Node.js, ws)');
    expect(all.map((s) => s.code).join('\n')).not.toContain('2024-');
    for (const s of all) for (const line of s.code.split('\n')) expect(line.length, line).toBeLessThanOrEqual(90);
  });
});

describe('exchange time', () => {
  it('draws US tickers in New York time (EST and EDT) and crypto and forex in UTC', () => {
    expect(exchangeZone('AAPL')).toBe('America/New_York');
    expect(exchangeZone('X:BTCUSD')).toBe('UTC');
    expect(exchangeZone('C:EURUSD')).toBe('UTC');
    const winterOpen = Date.parse('2026-11-20T14:30:00Z');
    expect(new Date(chartSeconds(winterOpen, 'America/New_York') * 1000).toISOString().slice(11, 16)).toBe('09:30');
    const summerOpen = Date.parse('2026-07-20T13:30:00Z');
    expect(new Date(chartSeconds(summerOpen, 'America/New_York') * 1000).toISOString().slice(11, 16)).toBe('09:30');
    expect(chartSeconds(winterOpen, 'UTC')).toBe(winterOpen / 1000);
  });
});
