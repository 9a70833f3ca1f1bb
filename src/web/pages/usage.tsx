import { useEffect, useState } from 'preact/hooks';
import { call, type Plan, type Usage, type UsageDay } from '../api';
import { Card, ErrorLine, message } from '../components';

// Usage: requests per day for 30 days as a stacked bar chart by endpoint family, the rate-limit
// state of each key, and what the plan includes.

const COLOURS = ['#2563eb', '#16a34a', '#d97706', '#9333ea', '#dc2626', '#0891b2', '#64748b'];

/** The families with the most requests (at most 6), the rest counted as "other". */
function topFamilies(days: UsageDay[]): string[] {
  const totals = new Map<string, number>();
  for (const d of days) for (const [f, n] of Object.entries(d.families)) totals.set(f, (totals.get(f) ?? 0) + n);
  return [...totals].sort((a, b) => b[1] - a[1]).slice(0, 6).map(([f]) => f);
}

export function UsageChart({ days }: { days: UsageDay[] }) {
  const families = topFamilies(days);
  const max = Math.max(1, ...days.map((d) => d.requests));
  const W = 720;
  const H = 200;
  const bar = W / days.length;
  const today = days[days.length - 1];
  return (
    <figure data-testid="usage-chart" data-today={today?.requests ?? 0}>
      <svg viewBox={`0 0 ${W} ${H + 20}`} role="img" aria-label="Requests per day, last 30 days">
        {days.map((d, i) => {
          let y = H;
          const parts = [...families.map((f) => d.families[f] ?? 0), d.requests - families.reduce((s, f) => s + (d.families[f] ?? 0), 0)];
          return (
            <g>
              <title>{`${d.day}: ${d.requests} requests${d.errors ? `, ${d.errors} errors` : ''}`}</title>
              {parts.map((n, j) => {
                if (n <= 0) return null;
                const h = (n / max) * H;
                y -= h;
                return <rect x={i * bar + 1} y={y} width={bar - 2} height={h} fill={COLOURS[Math.min(j, COLOURS.length - 1)]} />;
              })}
              {(i % 5 === 4 || i === days.length - 1) && (
                <text x={i * bar + bar / 2} y={H + 14} text-anchor="middle" font-size="10">
                  {d.day.slice(5)}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <figcaption>
        Today: <strong data-testid="usage-today">{today?.requests ?? 0}</strong> requests · 30 days: {days.reduce((s, d) => s + d.requests, 0)} requests, busiest day {max === 1 && days.every((d) => d.requests === 0) ? 0 : max}
        <ul class="legend">
          {[...families, 'other'].map((f, j) => (
            <li>
              <span class="swatch" style={{ background: COLOURS[Math.min(j, COLOURS.length - 1)] }} />
              {f}
            </li>
          ))}
        </ul>
      </figcaption>
    </figure>
  );
}

export function EntitlementsTable({ plan }: { plan: Plan }) {
  const markets = Object.keys(plan.entitlements[0]?.markets ?? {});
  return (
    <>
      <p>
        <strong>{plan.name}</strong>: {plan.description ?? ''} · {plan.timeframe === 'delayed' ? `delayed ${plan.delay_minutes} min` : plan.timeframe.replace(/_/g, ' ')} · history{' '}
        {plan.history_years === null ? 'unlimited' : `${plan.history_years} years`}
      </p>
      <table data-testid="entitlements">
        <thead>
          <tr>
            <th>Data set</th>
            {markets.map((m) => (
              <th>{m}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {plan.entitlements.map((e) => (
            <tr>
              <td>{e.dataset}</td>
              {markets.map((m) => (
                <td class={e.markets[m] ? 'yes' : 'no'}>{e.markets[m] ? '✓' : '—'}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

export function UsagePage() {
  const [usage, setUsage] = useState<Usage>();
  const [error, setError] = useState<string>();
  useEffect(() => void call<Usage>('GET', 'usage').then(setUsage, (e) => setError(message(e))), []);
  if (error) return <ErrorLine error={error} />;
  if (!usage) return <p class="loading">Loading…</p>;
  const rl = usage.rate_limit;
  return (
    <>
      <Card title="Requests per day (UTC), last 30 days">
        <UsageChart days={usage.days} />
      </Card>
      <Card title="Rate limit">
        {!rl ? (
          <p>Your plan has no rate limit.</p>
        ) : (
          <>
            <p>
              {rl.requests} requests per {rl.per_seconds === 60 ? 'minute' : `${rl.per_seconds} s`}, per key.
            </p>
            <table>
              <thead>
                <tr>
                  <th>Key</th>
                  <th>Remaining in this window</th>
                  <th>Window resets</th>
                </tr>
              </thead>
              <tbody>
                {rl.keys.map((k) => (
                  <tr>
                    <td>
                      <code>{k.prefix}…</code>
                    </td>
                    <td>
                      {k.remaining} / {rl.requests}
                    </td>
                    <td>{new Date(k.reset_ms).toLocaleTimeString()}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </>
        )}
      </Card>
      <Card title="What your plan includes">{usage.plan ? <EntitlementsTable plan={usage.plan} /> : <p>Unknown plan.</p>}</Card>
    </>
  );
}
