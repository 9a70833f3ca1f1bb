import { useEffect, useState } from 'preact/hooks';
import { call, type Key, type Session } from '../api';
import { Card, CopyButton } from '../components';

// Ready-to-paste snippets for this server, with a placeholder where the key goes (the page never
// holds a key: the placeholder names the key by its prefix).

export function QuickstartPage({ session }: { session: Session }) {
  const [keys, setKeys] = useState<Key[]>([]);
  const [prefix, setPrefix] = useState('');
  useEffect(() => void call<{ results: Key[] }>('GET', 'keys').then((r) => setKeys(r.results.filter((k) => !k.revoked_utc)), () => setKeys([])), []);
  const base = session.public_url;
  // the official clients parse upstream's bodies, which this base answers in whatever --envelope says
  const clientBase = session.client_url;
  const key = prefix ? `${prefix}…` : 'YOUR_KEY';
  const snippets: [string, string][] = [
    ['curl', `curl -H "Authorization: Bearer ${key}" \\\n  "${clientBase}/v2/aggs/ticker/AAPL/range/1/day/2024-01-02/2024-01-31"`],
    [
      'Python (massive)',
      `# pip install massive\nfrom massive import RESTClient\n\nclient = RESTClient(api_key="${key}", base="${clientBase}")\nfor bar in client.list_aggs("AAPL", 1, "day", "2024-01-02", "2024-01-31"):\n    print(bar)`,
    ],
    [
      'JavaScript (@massive.com/client-js)',
      `// npm install @massive.com/client-js\nimport { restClient } from '@massive.com/client-js';\n\nconst rest = restClient('${key}', '${clientBase}');\nconst bars = await rest.getStocksAggregates({ stocksTicker: 'AAPL', multiplier: 1, timespan: 'day', from: '2024-01-02', to: '2024-01-31' });\nconsole.log(bars);`,
    ],
  ];
  return (
    <>
      <Card title="Quickstart">
        <p>
          Base URL of this server: <code>{base}</code>. Put your key where <code>{key}</code> stands (keys are shown once, when created, on the Keys page).
        </p>
        {keys.length > 0 && (
          <label>
            Key placeholder{' '}
            <select value={prefix} onChange={(e) => setPrefix(e.currentTarget.value)} data-testid="quickstart-key">
              <option value="">YOUR_KEY</option>
              {keys.map((k) => (
                <option value={k.prefix}>
                  {k.prefix}… {k.label ?? ''}
                </option>
              ))}
            </select>
          </label>
        )}
        <p class="hint">
          <code>{clientBase}</code> answers in upstream's bodies, as the official clients expect; the root answers in {session.envelope === 'wrapped' ? '{"ok":true,"data":…}' : "upstream's bodies"} (<code>--envelope {session.envelope}</code>).
        </p>
      </Card>
      {snippets.map(([title, text]) => (
        <Card title={title}>
          <pre data-testid="snippet">
            <code>{text}</code>
          </pre>
          <CopyButton text={text} />
        </Card>
      ))}
    </>
  );
}
