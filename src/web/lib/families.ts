// Usage is counted per route template (/v2/aggs/ticker/:ticker/range/...); people read it by data
// family, as upstream's and other providers' dashboards show it. The first rule that matches names
// the family.

const RULES: [RegExp, string][] = [
  [/^\/(v2\/aggs|v1\/open-close|futures\/vX\/aggs)\b/, 'Aggregates (bars)'],
  [/^\/v1\/indicators\b/, 'Technical indicators'],
  [/^\/(v3\/trades|v2\/last\/trade|v2\/ticks\/[^/]+\/[^/]+\/[^/]+\/trades|v1\/last\/crypto|options\/v3\/trades|stocks\/dev\/trades|v1\/historic\/.*trades)/, 'Trades'],
  [/^\/(v3\/quotes|v2\/last\/nbbo|v1\/last_quote|options\/v3\/quotes|v2\/ticks|v1\/historic)/, 'Quotes'],
  [/^\/(v2\/snapshot|v3\/snapshot|futures\/vX\/snapshot)/, 'Snapshots'],
  [/^\/(v2\/reference\/news|benzinga\/v\d\/news)/, 'News'],
  [/^\/(vX\/reference\/financials|stocks\/financials|stocks\/v1\/(dividends|splits)|stocks\/taxonomies)/, 'Fundamentals'],
  [/^\/stocks\/filings/, 'Filings'],
  [/^\/fed\//, 'Economy'],
  [/^\/futures\//, 'Futures reference'],
  [/^\/v1\/conversion/, 'Currency conversion'],
  [/^\/v1\/marketstatus/, 'Market status'],
  [/^\/(benzinga|etf-global|tmx|consumer-spending)\//, 'Partner data'],
  [/^\/(v3\/reference|v2\/reference|v1\/reference|vX\/reference|v1\/related-companies|v1\/summaries|v3\/social)/, 'Reference data'],
];

/** The data family a usage counter's route template belongs to. */
export function familyName(template: string): string {
  const path = template.replace(/^\/(upstream|envelope)(?=\/)/, '');
  for (const [re, name] of RULES) if (re.test(path)) return name;
  return 'Other endpoints';
}

/** Per-family counts merged under their family names. */
export function byFamilyName(families: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [template, n] of Object.entries(families)) {
    const name = familyName(template);
    out[name] = (out[name] ?? 0) + n;
  }
  return out;
}
