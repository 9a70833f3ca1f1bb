import { CandlestickSeries, createChart, HistogramSeries, type IChartApi, type ISeriesApi, type MouseEventParams, type UTCTimestamp } from 'lightweight-charts';
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiFailure, rest } from '../api';
import { message } from '../components';
import { compact, count, price } from '../lib/format';
import { chartSeconds, exchangeZone, zoneLabel, type ChartZone } from '../lib/market-time';

// The explorer's chart: candles over a price scale, volume on its own scale in a pane below, an
// OHLC readout of the bar under the pointer (the last bar otherwise), intraday times in the
// exchange's zone or UTC, and a date range typed as yyyy-mm-dd. A range the plan cut shows the
// answer's notice; a bad range or a refused request shows a sentence, and the chart stays as it is.

export interface Bar {
  t: number;
  o: number;
  h: number;
  l: number;
  c: number;
  v: number;
}

const TIMESPANS: { id: string; label: string; multiplier: number; timespan: string; days: number; intraday: boolean }[] = [
  { id: '1m', label: '1m', multiplier: 1, timespan: 'minute', days: 2, intraday: true },
  { id: '5m', label: '5m', multiplier: 5, timespan: 'minute', days: 7, intraday: true },
  { id: '1h', label: '1h', multiplier: 1, timespan: 'hour', days: 30, intraday: true },
  { id: '1d', label: '1D', multiplier: 1, timespan: 'day', days: 365, intraday: false },
  { id: '1w', label: '1W', multiplier: 1, timespan: 'week', days: 5 * 365, intraday: false },
];

const DAY = 86_400_000;
const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
export const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Why a range cannot be asked for, in words; undefined when it can. */
export function rangeProblem(from: string, to: string): string | undefined {
  for (const [name, v] of [['From', from], ['To', to]] as const) {
    if (v.trim() === '') return `Enter a ${name} date (yyyy-mm-dd).`;
    if (!ISO_DAY.test(v) || Number.isNaN(Date.parse(v))) return `${name} date "${v}" is not a date: write it as yyyy-mm-dd, e.g. ${isoDay(Date.now())}.`;
  }
  if (from > to) return `From (${from}) is after To (${to}).`;
  return undefined;
}

/** A refused request in words. */
function refusal(err: unknown): string {
  if (err instanceof ApiFailure && err.status === 403) return `Your plan does not include this: ${err.message}`;
  if (err instanceof ApiFailure && err.status === 429) return 'Too many requests for your plan just now: try again in a minute.';
  return `Could not load the bars: ${message(err)}`;
}

function readout(b: Bar, intraday: boolean, zone: string): string {
  const shifted = new Date(chartSeconds(b.t, zone) * 1000).toISOString();
  const when = intraday ? `${shifted.slice(0, 10)} ${shifted.slice(11, 16)}` : shifted.slice(0, 10);
  return `${when}  O ${price(b.o)}  H ${price(b.h)}  L ${price(b.l)}  C ${price(b.c)}  V ${compact(b.v)}`;
}

export function Chart({ ticker, end }: { ticker: string; end: number | undefined }) {
  const box = useRef<HTMLDivElement>(null);
  const parts = useRef<{ chart: IChartApi; candles: ISeriesApi<'Candlestick'>; volume: ISeriesApi<'Histogram'> } | undefined>(undefined);
  /** The drawn bars by the chart time each was given: the readout finds the bar under the pointer. */
  const byTime = useRef(new Map<number, Bar>());
  // the bar size and the range change together, so a new bar size never asks for the old range
  // (a year of 1-minute bars) on the way
  const [view, setView] = useState<{ span: string; from: string; to: string }>();
  const span = view?.span ?? '1d';
  const [zoneChoice, setZoneChoice] = useState<ChartZone>('exchange');
  const [draft, setDraft] = useState({ from: '', to: '' });
  const [state, setState] = useState<string>();
  const [problem, setProblem] = useState<string>();
  const [notice, setNotice] = useState<string>();
  const [hover, setHover] = useState<Bar>();
  const [last, setLast] = useState<Bar>();

  const s = TIMESPANS.find((x) => x.id === span)!;
  const homeZone = exchangeZone(ticker);
  const zone = s.intraday && zoneChoice === 'utc' ? 'UTC' : homeZone;

  // a bar size comes with a range that suits it (a few days of minutes, years of weeks)
  const showSpan = (id: string) => {
    if (end === undefined) return;
    const days = TIMESPANS.find((x) => x.id === id)!.days;
    const r = { from: isoDay(end - days * DAY), to: isoDay(end) };
    setDraft(r);
    setView({ span: id, ...r });
  };
  useEffect(() => showSpan(span), [end]);

  // one chart per mounted component, its two series with it: the series are never removed on
  // their own, so nothing touches a chart after its removal
  useEffect(() => {
    if (!box.current) return;
    const chart = createChart(box.current, {
      height: 420,
      layout: { background: { color: '#ffffff' }, textColor: '#475569', fontSize: 12, panes: { separatorColor: '#e5e7eb' } },
      grid: { vertLines: { color: '#f1f5f9' }, horzLines: { color: '#f1f5f9' } },
      rightPriceScale: { borderColor: '#e5e7eb' },
      timeScale: { borderColor: '#e5e7eb', timeVisible: true, secondsVisible: false },
      crosshair: { mode: 0 },
    });
    const candles = chart.addSeries(CandlestickSeries, { upColor: '#16a34a', downColor: '#dc2626', borderVisible: false, wickUpColor: '#16a34a', wickDownColor: '#dc2626' });
    const volume = chart.addSeries(HistogramSeries, { priceFormat: { type: 'volume' }, color: '#94a3b8' }, 1);
    chart.panes()[0]?.setStretchFactor(3);
    chart.panes()[1]?.setStretchFactor(1);
    parts.current = { chart, candles, volume };
    const move = (p: MouseEventParams) => {
      setHover(typeof p.time === 'number' ? byTime.current.get(p.time) : undefined);
    };
    chart.subscribeCrosshairMove(move);
    const resize = () => box.current && chart.applyOptions({ width: box.current.clientWidth });
    resize();
    addEventListener('resize', resize);
    return () => {
      removeEventListener('resize', resize);
      chart.unsubscribeCrosshairMove(move);
      chart.remove();
      parts.current = undefined;
    };
  }, []);

  useEffect(() => {
    const p = parts.current;
    if (!p || !view) return;
    const bad = rangeProblem(view.from, view.to);
    setProblem(bad);
    if (bad) return;
    setState('Loading…');
    setNotice(undefined);
    const url = `/v2/aggs/ticker/${encodeURIComponent(ticker)}/range/${s.multiplier}/${s.timespan}/${view.from}/${view.to}?adjusted=true&sort=asc&limit=50000`;
    let live = true;
    rest<{ results?: Bar[]; notice?: string }>(url).then(
      (r) => {
        if (!live || !parts.current) return;
        const list = r.results ?? [];
        const timed = list.map((b) => ({ b, time: chartSeconds(b.t, zone) as UTCTimestamp }));
        byTime.current = new Map(timed.map(({ b, time }) => [time, b]));
        p.chart.applyOptions({ timeScale: { timeVisible: s.intraday } });
        p.candles.setData(timed.map(({ b, time }) => ({ time, open: b.o, high: b.h, low: b.l, close: b.c })));
        p.volume.setData(timed.map(({ b, time }) => ({ time, value: b.v, color: b.c >= b.o ? '#86efac' : '#fca5a5' })));
        p.chart.timeScale().fitContent();
        setLast(list[list.length - 1]);
        setNotice(r.notice);
        setState(list.length ? `${count(list.length)} bars` : 'No bars in this range.');
      },
      (e) => {
        if (!live) return;
        setState(undefined);
        setProblem(refusal(e));
      },
    );
    return () => {
      live = false;
    };
  }, [ticker, view, zone]);

  const commit = (field: 'from' | 'to', value: string) => {
    const next = { ...draft, [field]: value.trim() };
    setDraft(next);
    setView({ span, ...next });
  };

  const shown = hover ?? last;
  return (
    <>
      <div class="chart-toolbar">
        <div class="segmented" role="group" aria-label="Bar size">
          {TIMESPANS.map((t) => (
            <button type="button" class={t.id === span ? 'active' : ''} aria-pressed={t.id === span} data-testid={`timespan-${t.id}`} onClick={() => showSpan(t.id)}>
              {t.label}
            </button>
          ))}
        </div>
        <label class="inline">
          From
          <input type="text" inputMode="numeric" pattern="\d{4}-\d{2}-\d{2}" placeholder="yyyy-mm-dd" size={10} value={draft.from} data-testid="range-from" onChange={(e) => commit('from', e.currentTarget.value)} />
        </label>
        <label class="inline">
          To
          <input type="text" inputMode="numeric" pattern="\d{4}-\d{2}-\d{2}" placeholder="yyyy-mm-dd" size={10} value={draft.to} data-testid="range-to" onChange={(e) => commit('to', e.currentTarget.value)} />
        </label>
        {s.intraday && homeZone !== 'UTC' && (
          <div class="segmented" role="group" aria-label="Time zone">
            <button type="button" class={zoneChoice === 'exchange' ? 'active' : ''} aria-pressed={zoneChoice === 'exchange'} data-testid="tz-exchange" onClick={() => setZoneChoice('exchange')}>
              {zoneLabel(homeZone)}
            </button>
            <button type="button" class={zoneChoice === 'utc' ? 'active' : ''} aria-pressed={zoneChoice === 'utc'} data-testid="tz-utc" onClick={() => setZoneChoice('utc')}>
              UTC
            </button>
          </div>
        )}
        <span class="muted" data-testid="chart-state" aria-live="polite">
          {state}
        </span>
      </div>
      {problem && (
        <p class="callout error" role="alert" data-testid="chart-problem">
          {problem}
        </p>
      )}
      {notice && (
        <p class="callout info" data-testid="chart-notice">
          {notice}
        </p>
      )}
      <p class="ohlc" data-testid="ohlc" data-zone={zone}>
        {shown ? readout(shown, s.intraday, zone) : ' '}
        {shown && s.intraday && <span class="muted"> {zoneLabel(zone)} time</span>}
      </p>
      <div ref={box} class="chart" data-testid="chart" />
    </>
  );
}
