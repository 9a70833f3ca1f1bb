import { useEffect, useState } from 'preact/hooks';
import { call, type Key, type Session, type Usage } from '../api';
import { Card, ErrorLine, message, PageHeader, Stat } from '../components';
import { count } from '../lib/format';
import { planSummary, timeframeText } from '../lib/plan-text';
import { UsageChart } from './usage-chart';

// The landing page after sign-in: today's figures, the plan, and the three steps from an account
// to a first answer (a key, a request, a chart), each marked done once it is.

export function OverviewPage({ session }: { session: Session }) {
  const [keys, setKeys] = useState<Key[]>();
  const [usage, setUsage] = useState<Usage>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    call<{ results: Key[] }>('GET', 'keys').then((r) => setKeys(r.results), (e) => setError(message(e)));
    call<Usage>('GET', 'usage').then(setUsage, (e) => setError(message(e)));
  }, []);
  const active = keys?.filter((k) => !k.revoked_utc) ?? [];
  const total = usage?.days.reduce((s, d) => s + d.requests, 0) ?? 0;
  const today = usage?.days[usage.days.length - 1]?.requests ?? 0;
  const plan = usage?.plan;
  const steps: { done: boolean; title: string; text: string; href: string; action: string }[] = [
    { done: active.length > 0, title: 'Create an API key', text: 'Programs send it with every request; it is shown once.', href: '#/keys', action: 'Create a key' },
    { done: total > 0, title: 'Make your first request', text: 'curl, Python, JavaScript and WebSocket examples for this server and your plan.', href: '#/quickstart', action: 'Open the quickstart' },
    { done: false, title: 'Explore a ticker', text: 'Search a symbol or a company and chart its bars.', href: '#/explorer', action: 'Open the explorer' },
  ];
  return (
    <>
      <PageHeader title="Overview" lead={`Signed in as ${session.account?.email ?? ''}. This server answers the upstream REST API at ${session.client_url}.`} />
      <ErrorLine error={error} />
      <div class="stats">
        <Stat label="Requests today (UTC)" value={usage ? count(today) : '…'} testid="overview-today" />
        <Stat label="Requests, last 30 days" value={usage ? count(total) : '…'} />
        <Stat label="Active keys" value={keys ? count(active.length) : '…'} />
        <Stat label="Plan" value={plan?.name ?? session.account?.plan ?? '…'} hint={plan ? timeframeText(plan) : undefined} />
      </div>
      <div class="grid-2">
        <Card title="Get started">
          <ol class="steps">
            {steps.map((s) => (
              <li class={s.done ? 'done' : ''}>
                <span class="step-mark" aria-hidden="true">
                  {s.done ? '✓' : ''}
                </span>
                <div>
                  <p class="step-title">
                    {s.title}
                    {s.done && <span class="sr-only"> (done)</span>}
                  </p>
                  <p class="muted">{s.text}</p>
                  <a href={s.href}>{s.action} →</a>
                </div>
              </li>
            ))}
          </ol>
        </Card>
        <Card title="Your plan">
          {plan ? (
            <>
              <p class="plan-name">{plan.name}</p>
              {plan.description && <p>{plan.description}</p>}
              <p class="muted">{planSummary(plan)}</p>
              <a href="#/usage">Usage and what the plan includes →</a>
            </>
          ) : (
            <p class="loading">Loading…</p>
          )}
        </Card>
      </div>
      {usage && (
        <Card title="Requests per day (UTC), last 30 days" actions={<a href="#/usage">Usage details →</a>}>
          <UsageChart days={usage.days} />
        </Card>
      )}
    </>
  );
}
