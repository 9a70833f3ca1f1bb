import { useEffect, useState } from 'preact/hooks';
import { rest, restImage } from '../api';
import { Card, EmptyState, ErrorLine, message, PageHeader } from '../components';
import { change, dollars, price } from '../lib/format';
import { Chart, isoDay, type Bar } from './explorer-chart';
import { Search, type TickerHit } from './explorer-search';

// The market explorer: type-ahead ticker search, the ticker's overview, the previous close with
// its day change, and a candlestick chart. Every call goes to the REST API with the dashboard's
// short-lived explorer token.

interface Overview extends TickerHit {
  market_cap?: number;
  description?: string;
  homepage_url?: string;
  branding?: { logo_url?: string; icon_url?: string };
}

const DAY = 86_400_000;

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

function OverviewPanel({ ticker }: { ticker: string }) {
  const [o, setO] = useState<Overview>();
  const [logo, setLogo] = useState<string>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    setO(undefined);
    setLogo(undefined);
    setError(undefined);
    let live = true;
    rest<{ results: Overview }>(`/v3/reference/tickers/${encodeURIComponent(ticker)}`).then(
      (r) => {
        if (!live) return;
        setO(r.results);
        const url = r.results.branding?.icon_url ?? r.results.branding?.logo_url;
        if (url) restImage(url).then((u) => live && setLogo(u), () => setLogo(undefined));
      },
      (e) => live && setError(message(e)),
    );
    return () => {
      live = false;
    };
  }, [ticker]);
  if (error) return <ErrorLine error={error} />;
  if (!o) return <p class="loading">Loading…</p>;
  return (
    <div class="overview" data-testid="overview">
      {logo ? <img src={logo} alt={`${o.name} logo`} class="logo" /> : <span class="logo placeholder" aria-hidden="true">{o.ticker.replace(/^[A-Z]:/, '').slice(0, 2)}</span>}
      <div class="overview-text">
        <h2>
          {o.name} <span class="muted">{o.ticker}</span>
        </h2>
        <p class="muted">
          {[o.market, o.primary_exchange, o.market_cap !== undefined ? `market cap ${dollars(o.market_cap)}` : undefined].filter(Boolean).join(' · ')}
        </p>
        {o.description && <p class="description">{o.description}</p>}
      </div>
    </div>
  );
}

function PreviousClose({ ticker }: { ticker: string }) {
  const [text, setText] = useState<{ close: string; day: string; change?: string; up?: boolean }>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    setText(undefined);
    setError(undefined);
    (async () => {
      const prev = await previousBar(ticker);
      if (!prev) return setError('No previous close.');
      const before = await rest<{ results?: Bar[] }>(`/v2/aggs/ticker/${encodeURIComponent(ticker)}/range/1/day/${isoDay(prev.t - 10 * DAY)}/${isoDay(prev.t - DAY)}?sort=desc&limit=1`);
      const base = before.results?.[0]?.c;
      setText({ close: price(prev.c), day: isoDay(prev.t), ...(base === undefined ? {} : { change: change(prev.c, base), up: prev.c >= base }) });
    })().catch((e) => setError(message(e)));
  }, [ticker]);
  return (
    <div class="quote" data-testid="prev-close">
      {error ? (
        <p class="muted">{error}</p>
      ) : !text ? (
        <p class="loading">Loading…</p>
      ) : (
        <>
          <p class="quote-label">Previous close · {text.day}</p>
          <p class="quote-price">{text.close}</p>
          {text.change && <p class={text.up ? 'up' : 'down'}>{text.change}</p>}
        </>
      )}
    </div>
  );
}

export function ExplorerPage({ initialTicker }: { initialTicker?: string }) {
  const [ticker, setTicker] = useState<string | undefined>(initialTicker);
  const [end, setEnd] = useState<number>();

  // the date range ends at the ticker's last session (the previous close), not at today
  useEffect(() => {
    if (!ticker) return;
    setEnd(undefined);
    let live = true;
    previousBar(ticker).then(
      (bar) => live && setEnd(bar?.t ?? Date.now()),
      () => live && setEnd(Date.now()),
    );
    return () => {
      live = false;
    };
  }, [ticker]);

  return (
    <>
      <PageHeader title="Explorer" lead="Look up any ticker of this server: its profile, last close and bars, read with your plan." />
      <Card>
        <Search
          onPick={(t) => {
            setTicker(t.ticker);
            // the address names the ticker, so it can be bookmarked or shared (replaceState fires no hashchange)
            history.replaceState(null, '', `#/explorer?ticker=${encodeURIComponent(t.ticker)}`);
          }}
        />
      </Card>
      {ticker ? (
        <>
          <Card>
            <div class="overview-row">
              <OverviewPanel ticker={ticker} />
              <PreviousClose ticker={ticker} />
            </div>
          </Card>
          <Card>
            <Chart key={ticker} ticker={ticker} end={end} />
          </Card>
        </>
      ) : (
        <Card>
          <EmptyState title="Pick a ticker to chart">
            Type a symbol or a name above: <em>AAPL</em>, <em>Microsoft</em>, <em>bitcoin</em> or <em>euro</em>. The chart reads bars with your plan, so it shows what your keys would get.
          </EmptyState>
        </Card>
      )}
    </>
  );
}
