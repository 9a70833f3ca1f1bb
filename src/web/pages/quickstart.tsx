import { useEffect, useState } from 'preact/hooks';
import { call, type Key, type Plan, type Session, type Usage } from '../api';
import { Card, CopyButton, EmptyState, PageHeader } from '../components';
import { timeframeText } from '../lib/plan-text';
import { quickstartSnippets } from '../lib/snippets';

// Ready-to-paste examples for this server and the account's plan: dates the plan can read, the
// feed it may use, and a placeholder where the key goes (the page never holds a key: the
// placeholder names the key by its prefix).

export function QuickstartPage({ session }: { session: Session }) {
  const [keys, setKeys] = useState<Key[]>([]);
  const [plan, setPlan] = useState<Plan | null>();
  const [prefix, setPrefix] = useState('');
  useEffect(() => {
    call<{ results: Key[] }>('GET', 'keys').then((r) => setKeys(r.results.filter((k) => !k.revoked_utc)), () => setKeys([]));
    call<Usage>('GET', 'usage').then((u) => setPlan(u.plan), () => setPlan(null));
  }, []);
  const key = prefix ? `${prefix}…` : 'YOUR_KEY';
  const facts = plan ?? { timeframe: 'delayed', history_years: 1 };
  const snippets = plan === undefined ? [] : quickstartSnippets({ clientBase: session.client_url, publicUrl: session.public_url, key, plan: facts, todayMs: Date.now() });
  return (
    <>
      <PageHeader title="Quickstart" lead="Examples for this server, ready to paste: the dates are ones your plan can read, the feed is the one it may use." />
      <Card>
        <dl class="facts">
          <dt>REST base URL (upstream's bodies, for the official clients)</dt>
          <dd>
            <code>{session.client_url}</code> <CopyButton text={session.client_url} />
          </dd>
          <dt>Your plan</dt>
          <dd>
            {plan ? `${plan.name}: ${timeframeText(plan).toLowerCase()}` : '…'}
            {plan && plan.history_years !== null ? `, ${plan.history_years} years of history` : ''}
          </dd>
        </dl>
        <p class="hint">
          The root, <code>{session.public_url}</code>, answers in {session.envelope === 'wrapped' ? '{"ok":true,"data":…}' : "upstream's bodies"} (<code>--envelope {session.envelope}</code>).
        </p>
        {keys.length > 0 ? (
          <label class="inline">
            Key in the examples
            <select value={prefix} onChange={(e) => setPrefix(e.currentTarget.value)} data-testid="quickstart-key">
              <option value="">YOUR_KEY</option>
              {keys.map((k) => (
                <option value={k.prefix}>
                  {k.prefix}… {k.label ?? ''}
                </option>
              ))}
            </select>
          </label>
        ) : (
          <EmptyState title="You need a key to run these">
            <a href="#/keys">Create a key</a> and put it where the examples say <code>YOUR_KEY</code>. Its secret is shown once, when you create it.
          </EmptyState>
        )}
      </Card>
      {snippets.map((s) => (
        <Card title={s.title} actions={<CopyButton text={s.code} />}>
          <pre data-testid="snippet">
            <code>{s.code}</code>
          </pre>
        </Card>
      ))}
    </>
  );
}
