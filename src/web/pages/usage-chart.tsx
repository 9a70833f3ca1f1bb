import type { UsageDay } from '../api';
import { byFamilyName } from '../lib/families';
import { compact, count } from '../lib/format';

// Requests per day as bars stacked by data family, with a y-axis, gridlines and a legend of
// family names. Drawn as SVG: a few dozen rectangles need no chart library on the first load.

const COLOURS = ['#4f46e5', '#0ea5e9', '#10b981', '#f59e0b', '#ec4899', '#8b5cf6', '#94a3b8'];

/** The families with the most requests (at most 6); the rest are drawn as "Other". */
function topFamilies(days: { families: Record<string, number> }[]): string[] {
  const totals = new Map<string, number>();
  for (const d of days) for (const [f, n] of Object.entries(d.families)) totals.set(f, (totals.get(f) ?? 0) + n);
  return [...totals].sort((a, b) => b[1] - a[1]).slice(0, 6).map(([f]) => f);
}

/** A round top for the y-axis (1, 2 or 5 times a power of ten) and its gridline step. */
export function niceScale(max: number): { top: number; step: number } {
  if (max <= 4) return { top: 4, step: 1 };
  const raw = max / 4;
  const p = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * p).find((s) => s >= raw)!;
  return { top: step * Math.ceil(max / step), step };
}

export function UsageChart({ days, label = 'Requests per day, last 30 days' }: { days: UsageDay[]; label?: string }) {
  const named = days.map((d) => ({ ...d, families: byFamilyName(d.families) }));
  const families = topFamilies(named);
  const busiest = Math.max(0, ...days.map((d) => d.requests));
  const { top, step } = niceScale(busiest);
  const W = 760;
  const H = 220;
  const left = 44;
  const plotW = W - left - 8;
  const bar = plotW / Math.max(1, days.length);
  const y = (n: number) => 8 + H - (n / top) * H;
  const today = days[days.length - 1];
  const total = days.reduce((s, d) => s + d.requests, 0);
  const ticks: number[] = [];
  for (let v = 0; v <= top; v += step) ticks.push(v);
  return (
    <figure data-testid="usage-chart" data-today={today?.requests ?? 0}>
      <svg viewBox={`0 0 ${W} ${H + 32}`} role="img" aria-label={`${label}: ${count(total)} requests`}>
        {ticks.map((v) => (
          <g class="grid">
            <line x1={left} x2={W - 8} y1={y(v)} y2={y(v)} stroke={v === 0 ? '#94a3b8' : '#e5e7eb'} stroke-width="1" />
            <text x={left - 6} y={y(v) + 4} text-anchor="end" font-size="11" fill="#64748b">
              {compact(v)}
            </text>
          </g>
        ))}
        {named.map((d, i) => {
          let base = 0;
          const parts = [...families.map((f) => d.families[f] ?? 0), d.requests - families.reduce((s, f) => s + (d.families[f] ?? 0), 0)];
          return (
            <g>
              <title>{`${d.day}: ${count(d.requests)} requests${d.errors ? `, ${count(d.errors)} errors` : ''}`}</title>
              {parts.map((n, j) => {
                if (n <= 0) return null;
                const rect = <rect x={left + i * bar + 2} y={y(base + n)} width={Math.max(1, bar - 4)} height={y(base) - y(base + n)} rx="1.5" fill={COLOURS[Math.min(j, COLOURS.length - 1)]} />;
                base += n;
                return rect;
              })}
              {(i % 5 === 4 || i === days.length - 1) && (
                <text x={left + i * bar + bar / 2} y={H + 26} text-anchor="middle" font-size="11" fill="#64748b">
                  {d.day.slice(5)}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <figcaption>
        <p class="chart-caption">
          Today: <strong data-testid="usage-today">{count(today?.requests ?? 0)}</strong> requests · 30 days: <strong>{count(total)}</strong> · busiest day: {count(busiest)}
        </p>
        {families.length > 0 && (
          <ul class="legend" data-testid="usage-legend">
            {[...families, ...(named.some((d) => d.requests > families.reduce((s, f) => s + (d.families[f] ?? 0), 0)) ? ['Other'] : [])].map((f, j) => (
              <li>
                <span class="swatch" style={{ background: COLOURS[Math.min(j, COLOURS.length - 1)] }} />
                {f}
              </li>
            ))}
          </ul>
        )}
      </figcaption>
    </figure>
  );
}
