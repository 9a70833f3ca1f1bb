import { useEffect, useState } from 'preact/hooks';
import { call, type Key, type Plan, type Usage } from '../api';
import { Card, EmptyState, ErrorLine, message, PageHeader } from '../components';
import { count } from '../lib/format';
import { planSummary } from '../lib/plan-text';
import { UsageChart } from './usage-chart';

// Usage: requests per day for 30 days stacked by data family, the rate-limit state of each key,
// and what the plan includes.

const MARKET_NAMES: Record<string, string> = { stocks: 'Stocks', options: 'Options', indices: 'Indices', fx: 'Forex', crypto: 'Crypto', futures: 'Futures' };

export function EntitlementsTable({ plan }: { plan: Plan }) {
  const markets = Object.keys(plan.entitlements[0]?.markets ?? {});
  return (
    <>
      <p>
        <strong>{plan.name}</strong>
        {plan.description ? `: ${plan.description}` : ''}
      </p>
      <p class="muted">{planSummary(plan)}</p>
      <div class="table-wrap">
        <table data-testid="entitlements">
          <thead>
            <tr>
              <th>Data set</th>
              {markets.map((m) => (
                <th class="center">{MARKET_NAMES[m] ?? m}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {plan.entitlements.map((e) => (
              <tr>
                <td>{e.dataset}</td>
                {markets.map((m) => (
                  <td class={`center ${e.markets[m] ? 'yes' : 'no'}`}>{e.markets[m] ? <span aria-label="included">✓</span> : <span aria-label="not included">–</span>}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

export function UsagePage() {
  const [usage, setUsage] = useState<Usage>();
  const [keys, setKeys] = useState<Key[]>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    call<Usage>('GET', 'usage').then(setUsage, (e) => setError(message(e)));
    call<{ results: Key[] }>('GET', 'keys').then((r) => setKeys(r.results.filter((k) => !k.revoked_utc)), (e) => setError(message(e)));
  }, []);
  if (error) return <ErrorLine error={error} />;
  if (!usage || !keys) return <p class="loading">Loading…</p>;
  const rl = usage.rate_limit;
  const quiet = usage.days.every((d) => d.requests === 0);
  return (
    <>
      <PageHeader title="Usage" lead="Requests of your keys and of the explorer, per UTC day, and what your plan allows." />
      <Card title="Requests per day (UTC), last 30 days">
        {keys.length === 0 ? (
          <EmptyState title="You have no API keys yet" testid="usage-empty">
            Requests of your programs appear here once they call the API with a key. <a href="#/keys">Create a key</a>, then paste an example from the <a href="#/quickstart">Quickstart</a>.
            {!quiet && ' The requests below are the explorer’s.'}
          </EmptyState>
        ) : (
          quiet && (
            <EmptyState title="No requests in the last 30 days" testid="usage-empty">
              Call the API with one of your keys: the <a href="#/quickstart">Quickstart</a> has examples ready to paste. Charts drawn in the <a href="#/explorer">Explorer</a> count too.
            </EmptyState>
          )
        )}
        <UsageChart days={usage.days} />
      </Card>
      <Card title="Rate limit">
        {!rl ? (
          <p>Your plan has no rate limit.</p>
        ) : (
          <>
            <p>
              {count(rl.requests)} requests per {rl.per_seconds === 60 ? 'minute' : `${count(rl.per_seconds)} s`}, per key.
            </p>
            {rl.keys.length === 0 ? (
              <EmptyState title="You have no keys yet" testid="rate-limit-empty">
                Each key's remaining requests in its current window show here. <a href="#/keys">Create a key</a> to start.
              </EmptyState>
            ) : (
              <table>
                <thead>
                  <tr>
                    <th>Key</th>
                    <th class="num">Remaining in this window</th>
                    <th>Window resets</th>
                  </tr>
                </thead>
                <tbody>
                  {rl.keys.map((k) => (
                    <tr>
                      <td>
                        <code>{k.prefix}…</code>
                      </td>
                      <td class="num">
                        {count(k.remaining)} / {count(rl.requests)}
                      </td>
                      <td>{new Date(k.reset_ms).toISOString().slice(11, 19)} UTC</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </>
        )}
      </Card>
      <Card title="What your plan includes">{usage.plan ? <EntitlementsTable plan={usage.plan} /> : <p>Unknown plan.</p>}</Card>
    </>
  );
}
