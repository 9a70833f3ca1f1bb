// A plan in words, from its fields: how fresh, how far back, how often. The plan's own
// description names only its data sets, so the two never disagree.

export interface PlanFacts {
  timeframe: string;
  delay_minutes?: number;
  history_years: number | null;
  rate_limit: { requests: number; per_seconds: number } | null;
}

export function timeframeText(p: Pick<PlanFacts, 'timeframe' | 'delay_minutes'>): string {
  if (p.timeframe === 'realtime') return 'Real-time';
  if (p.timeframe === 'delayed') return `${p.delay_minutes ?? 15}-minute delayed`;
  return 'End of day';
}

export function historyText(p: Pick<PlanFacts, 'history_years'>): string {
  return p.history_years === null ? 'all history' : `${p.history_years} ${p.history_years === 1 ? 'year' : 'years'} of history`;
}

export function rateText(p: Pick<PlanFacts, 'rate_limit'>): string {
  if (!p.rate_limit) return 'unlimited requests';
  const { requests, per_seconds } = p.rate_limit;
  const window = per_seconds === 60 ? 'minute' : per_seconds === 1 ? 'second' : `${per_seconds} s`;
  return `${requests.toLocaleString('en-US')} requests per ${window}`;
}

/** "15-minute delayed · 2 years of history · 5 requests per minute" */
export function planSummary(p: PlanFacts): string {
  return [timeframeText(p), historyText(p), rateText(p)].join(' · ');
}
