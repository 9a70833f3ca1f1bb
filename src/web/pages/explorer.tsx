import { CandlestickSeries, createChart, HistogramSeries, type IChartApi, type UTCTimestamp } from 'lightweight-charts';
import { useEffect, useRef, useState } from 'preact/hooks';
import { rest, restImage } from '../api';
import { Card, ErrorLine, message } from '../components';

// The market explorer: type-ahead ticker search, the ticker's overview, a candlestick chart with
// volume over a chosen timespan and date range, and the previous close with its day change. Every
// call goes to the REST API with the dashboard's short-lived explorer token.

interface TickerHit {
  ticker: string;
  name: string;
  market: string;
  primary_exchange?: string;
}

interface Overview extends TickerHit {
  market_cap?: number;
  description?: string;
  homepage_url?: string;
  branding?: { logo_url?: string; icon_url?: string };
}

interface Bar {
  t: number;
  o: number;
  h: number;
  l: number;
  c: number;
  v: number;
}

const TIMESPANS: { id: string; label: string; multiplier: number; timespan: string; days: number }[] = [
  { id: '1m', label: '1 min', multiplier: 1, timespan: 'minute', days: 2 },
  { id: '5m', label: '5 min', multiplier: 5, timespan: 'minute', days: 7 },
  { id: '1h', label: '1 h', multiplier: 1, timespan: 'hour', days: 30 },
  { id: '1d', label: '1 day', multiplier: 1, timespan: 'day', days: 365 },
  { id: '1w', label: '1 week', multiplier: 1, timespan: 'week', days: 5 * 365 },
];

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The previous-close bar of a ticker, fetched once per ticker for the panel and the chart. */
const prevCache = new Map<string, Promise<Bar | undefined>>();
function previousBar(ticker: string): Promise<Bar | undefined> {
  let p = prevCache.get(ticker);
  if (!p) {
    p = rest<{ results?: Bar[] }>(`/v2/aggs/ticker/${encodeURIComponent(ticker)}/prev`).then((r) => r.results?.[0]);
    p.catch(() => prevCache.delete(ticker));
    prevCache.set(ticker, p);
  }
  return p;
}
const DAY = 86_400_000;

function money(n: number | undefined): string {
  if (n === undefined) return '—';
  if (n >= 1e12) return `$${(n / 1e12).toFixed(2)} T`;
  if (n >= 1e9) return `$${(n / 1e9).toFixed(2)} B`;
  if (n >= 1e6) return `$${(n / 1e6).toFixed(2)} M`;
  return `$${n.toLocaleString()}`;
}

function Search({ onPick }: { onPick: (t: TickerHit) => void }) {
  const [q, setQ] = useState('');
  const [hits, setHits] = useState<TickerHit[]>([]);
  const [error, setError] = useState<string>();
  useEffect(() => {
    const text = q.trim();
    if (!text) return setHits([]);
    const timer = setTimeout(() => {
      rest<{ results?: TickerHit[] }>(`/v3/reference/tickers?search=${encodeURIComponent(text)}&active=true&limit=10`).then(
        (r) => {
          setHits(r.results ?? []);
          setError(undefined);
        },
        (e) => setError(message(e)),
      );
    }, 200);
    return () => clearTimeout(timer);
  }, [q]);
  return (
    <div class="search">
      <input type="search" placeholder="Search tickers or companies, e.g. AAPL or Apple" data-testid="ticker-search" value={q} onInput={(e) => setQ(e.currentTarget.value)} autocomplete="off" />
      {hits.length > 0 && (
        <ul class="options" role="listbox">
          {hits.map((h) => (
            <li
              role="option"
              data-testid="ticker-option"
              onClick={() => {
                setHits([]);
                setQ(h.ticker);
                onPick(h);
              }}
            >
              <strong>{h.ticker}</strong> {h.name} <span class="muted">{h.market}</span>
            </li>
          ))}
        </ul>
      )}
      <ErrorLine error={error} />
    </div>
  );
}

function OverviewPanel({ ticker }: { ticker: string }) {
  const [o, setO] = useState<Overview>();
  const [logo, setLogo] = useState<string>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    setO(undefined);
    setLogo(undefined);
    rest<{ results: Overview }>(`/v3/reference/tickers/${encodeURIComponent(ticker)}`).then(
      (r) => {
        setO(r.results);
        const url = r.results.branding?.logo_url ?? r.results.branding?.icon_url;
        if (url) restImage(url).then(setLogo, () => setLogo(undefined));
      },
      (e) => setError(message(e)),
    );
  }, [ticker]);
  if (error) return <ErrorLine error={error} />;
  if (!o) return <p class="loading">Loading…</p>;
  return (
    <div class="overview" data-testid="overview">
      {logo && <img src={logo} alt={`${o.name} logo`} class="logo" />}
      <div>
        <h3>
          {o.name} <span class="muted">({o.ticker})</span>
        </h3>
        <p>
          Exchange: {o.primary_exchange ?? '—'} · Market cap: {money(o.market_cap)}
        </p>
        {o.description && <p class="description">{o.description}</p>}
      </div>
    </div>
  );
}

function PreviousClose({ ticker }: { ticker: string }) {
  const [text, setText] = useState<string>();
  useEffect(() => {
    setText(undefined);
    (async () => {
      const prev = await previousBar(ticker);
      if (!prev) return setText('No previous close.');
      const before = await rest<{ results?: Bar[] }>(`/v2/aggs/ticker/${encodeURIComponent(ticker)}/range/1/day/${isoDay(prev.t - 10 * DAY)}/${isoDay(prev.t - DAY)}?sort=desc&limit=1`);
      const base = before.results?.[0]?.c;
      const change = base === undefined ? '' : ` · day change ${prev.c - base >= 0 ? '+' : ''}${(prev.c - base).toFixed(2)} (${(((prev.c - base) / base) * 100).toFixed(2)}%)`;
      setText(`Previous close ${prev.c.toFixed(2)} on ${isoDay(prev.t)}${change}`);
    })().catch((e) => setText(message(e)));
  }, [ticker]);
  return <p data-testid="prev-close">{text ?? 'Loading…'}</p>;
}

function Chart({ ticker }: { ticker: string }) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<IChartApi | undefined>(undefined);
  const [span, setSpan] = useState('1d');
  const [range, setRange] = useState<{ from: string; to: string }>();
  const [state, setState] = useState<string>();

  const [end, setEnd] = useState<number>();

  // the date range ends at the ticker's last session (the previous close), not at today
  useEffect(() => {
    previousBar(ticker).then(
      (bar) => setEnd(bar?.t ?? Date.now()),
      () => setEnd(Date.now()),
    );
  }, [ticker]);

  // a new timespan brings a range that suits it (a few days of minutes, years of weeks)
  useEffect(() => {
    if (end === undefined) return;
    const s = TIMESPANS.find((x) => x.id === span)!;
    setRange({ from: isoDay(end - s.days * DAY), to: isoDay(end) });
  }, [end, span]);

  useEffect(() => {
    if (!box.current) return;
    const c = createChart(box.current, { height: 360, layout: { background: { color: '#ffffff' }, textColor: '#1f2937' }, timeScale: { timeVisible: true } });
    chart.current = c;
    const resize = () => box.current && c.applyOptions({ width: box.current.clientWidth });
    resize();
    addEventListener('resize', resize);
    return () => {
      removeEventListener('resize', resize);
      c.remove();
      chart.current = undefined;
    };
  }, []);

  useEffect(() => {
    const c = chart.current;
    if (!c || !range) return;
    const s = TIMESPANS.find((x) => x.id === span)!;
    setState('Loading…');
    const url = `/v2/aggs/ticker/${encodeURIComponent(ticker)}/range/${s.multiplier}/${s.timespan}/${range.from}/${range.to}?adjusted=true&sort=asc&limit=50000`;
    let live = true;
    const candles = c.addSeries(CandlestickSeries, { upColor: '#16a34a', downColor: '#dc2626', borderVisible: false, wickUpColor: '#16a34a', wickDownColor: '#dc2626' });
    const volume = c.addSeries(HistogramSeries, { priceScaleId: '', priceFormat: { type: 'volume' }, color: '#94a3b8' });
    volume.priceScale().applyOptions({ scaleMargins: { top: 0.8, bottom: 0 } });
    rest<{ results?: Bar[] }>(url).then(
      (r) => {
        if (!live) return;
        const bars = r.results ?? [];
        candles.setData(bars.map((b) => ({ time: (b.t / 1000) as UTCTimestamp, open: b.o, high: b.h, low: b.l, close: b.c })));
        volume.setData(bars.map((b) => ({ time: (b.t / 1000) as UTCTimestamp, value: b.v, color: b.c >= b.o ? '#86efac' : '#fca5a5' })));
        c.timeScale().fitContent();
        setState(bars.length ? `${bars.length} bars` : 'No bars in this range.');
      },
      (e) => live && setState(message(e)),
    );
    return () => {
      live = false;
      c.removeSeries(candles);
      c.removeSeries(volume);
    };
  }, [ticker, span, range?.from, range?.to]);

  return (
    <>
      <div class="row controls">
        {TIMESPANS.map((s) => (
          <button type="button" class={s.id === span ? 'active' : ''} data-testid={`timespan-${s.id}`} onClick={() => setSpan(s.id)}>
            {s.label}
          </button>
        ))}
        <label>
          From <input type="date" value={range?.from} data-testid="range-from" onChange={(e) => range && setRange({ ...range, from: e.currentTarget.value })} />
        </label>
        <label>
          To <input type="date" value={range?.to} data-testid="range-to" onChange={(e) => range && setRange({ ...range, to: e.currentTarget.value })} />
        </label>
        <span class="muted" data-testid="chart-state">
          {state}
        </span>
      </div>
      <div ref={box} class="chart" data-testid="chart" />
    </>
  );
}

export function ExplorerPage() {
  const [ticker, setTicker] = useState<string>();
  return (
    <>
      <Card title="Explorer">
        <Search onPick={(t) => setTicker(t.ticker)} />
      </Card>
      {ticker && (
        <>
          <Card title="Overview">
            <OverviewPanel ticker={ticker} />
            <PreviousClose ticker={ticker} />
          </Card>
          <Card title="Chart">
            <Chart ticker={ticker} />
          </Card>
        </>
      )}
    </>
  );
}
