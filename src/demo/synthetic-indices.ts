// Synthetic indices from invented providers, named by region, theme and variant.

import type { TickerRecord } from '../store/records.js';
import { REAL_INDEX_SYMBOLS } from './facts/indices-currencies.js';
import { INDEX_PROVIDERS, INDEX_REGIONS, INDEX_THEMES, INDEX_VARIANTS } from './facts/synthetic-words.js';
import { addDays, randomDate } from './civil-days.js';
import { LETTER_ARR } from './synthetic-ids.js';
import type { Draft, GenContext } from './ticker-drafts.js';

export function genIndices(ctx: GenContext, n: number): void {
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
