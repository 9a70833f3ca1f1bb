// The quickstart's examples, built for the account's plan and today: a date range the plan can
// read (inside its history, ending at the last weekday before today, which every timeframe has
// closed), and the WebSocket feed the plan may use (real-time or delayed).

export interface SnippetPlan {
  timeframe: string;
  history_years: number | null;
}

export interface Snippet {
  title: string;
  code: string;
}

const DAY = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The last 30 days up to the last weekday before today, cut to the plan's history. */
export function exampleRange(plan: SnippetPlan, todayMs: number): { from: string; to: string } {
  let to = Math.floor(todayMs / DAY) * DAY - DAY;
  while ([0, 6].includes(new Date(to).getUTCDay())) to -= DAY;
  let from = to - 30 * DAY;
  if (plan.history_years !== null) from = Math.max(from, Math.ceil((todayMs - plan.history_years * 365 * DAY) / DAY) * DAY + DAY);
  return { from: isoDay(Math.min(from, to)), to: isoDay(to) };
}

/** The feed URL of the stocks market for the plan: /delayed/stocks unless the plan is real-time. */
export function feedUrl(publicUrl: string, plan: SnippetPlan): string {
  return `${publicUrl.replace(/^http/, 'ws')}${plan.timeframe === 'realtime' ? '' : '/delayed'}/stocks`;
}

export function quickstartSnippets(opts: { clientBase: string; publicUrl: string; key: string; plan: SnippetPlan; todayMs: number }): Snippet[] {
  const { clientBase, key, plan } = opts;
  const { from, to } = exampleRange(plan, opts.todayMs);
  return [
    {
      title: 'curl',
      code: `curl -H "Authorization: Bearer ${key}" \\\n  "${clientBase}/v2/aggs/ticker/AAPL/range/1/day/${from}/${to}"`,
    },
    {
      title: 'Python (massive)',
      code: [
        '# pip install massive',
        'from massive import RESTClient',
        '',
        `client = RESTClient(api_key="${key}", base="${clientBase}")`,
        `for bar in client.list_aggs("AAPL", 1, "day", "${from}", "${to}"):`,
        '    print(bar)',
      ].join('\n'),
    },
    {
      title: 'JavaScript (@massive.com/client-js)',
      code: [
        '// npm install @massive.com/client-js',
        "import { restClient } from '@massive.com/client-js';",
        '',
        `const rest = restClient('${key}', '${clientBase}');`,
        'const bars = await rest.getStocksAggregates({',
        "  stocksTicker: 'AAPL',",
        '  multiplier: 1,',
        "  timespan: 'day',",
        `  from: '${from}',`,
        `  to: '${to}',`,
        '});',
        'console.log(bars);',
      ].join('\n'),
    },
    {
      title: 'WebSocket (Node.js, ws)',
      code: [
        '// npm install ws',
        "import WebSocket from 'ws';",
        '',
        `const ws = new WebSocket('${feedUrl(opts.publicUrl, plan)}');`,
        'ws.on(\'open\', () => {',
        `  ws.send(JSON.stringify({ action: 'auth', params: '${key}' }));`,
        "  ws.send(JSON.stringify({ action: 'subscribe', params: 'AM.AAPL' }));",
        '});',
        "ws.on('message', (data) => {",
        '  for (const event of JSON.parse(data)) console.log(event);',
        '});',
      ].join('\n'),
    },
  ];
}
