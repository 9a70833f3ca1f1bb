import { useEffect, useRef, useState } from 'preact/hooks';
import { rest } from '../api';
import { ErrorLine, message } from '../components';
import { rankSearch } from '../lib/search-rank';

// The explorer's type-ahead: asks the REST API for a wide page of matches (it answers in ticker
// order), ranks them (lib/search-rank.ts) and shows the first ten. The list closes on a pick, on
// Esc and on a click outside, and a pick does not search again.

export interface TickerHit {
  ticker: string;
  name: string;
  market: string;
  primary_exchange?: string;
}

const SHOWN = 10;

/** The ARIA combobox pattern (Preact's types ask a combobox input for a datalist, which this is not). */
const comboboxAttributes = (expanded: boolean) => ({ role: 'combobox', 'aria-expanded': expanded, 'aria-controls': 'ticker-options', 'aria-autocomplete': 'list' });
/** Matches asked for: enough that the best ones are among them for short, common words. */
const FETCHED = 250;

export function Search({ onPick }: { onPick: (t: TickerHit) => void }) {
  const [q, setQ] = useState('');
  const [hits, setHits] = useState<TickerHit[]>([]);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const [error, setError] = useState<string>();
  const box = useRef<HTMLDivElement>(null);
  /** The text a pick put in the box: it is not a search. */
  const picked = useRef<string | undefined>(undefined);

  useEffect(() => {
    const text = q.trim();
    if (!text || text === picked.current) {
      setHits([]);
      return;
    }
    let live = true;
    const timer = setTimeout(() => {
      rest<{ results?: TickerHit[] }>(`/v3/reference/tickers?search=${encodeURIComponent(text)}&active=true&limit=${FETCHED}`).then(
        (r) => {
          if (!live) return;
          setHits(rankSearch(r.results ?? [], text).slice(0, SHOWN));
          setActive(0);
          setOpen(true);
          setError(undefined);
        },
        (e) => live && setError(message(e)),
      );
    }, 200);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [q]);

  useEffect(() => {
    const outside = (e: MouseEvent) => {
      if (box.current && !box.current.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', outside);
    return () => document.removeEventListener('mousedown', outside);
  }, []);

  const pick = (h: TickerHit) => {
    picked.current = h.ticker;
    setOpen(false);
    setHits([]);
    setQ(h.ticker);
    onPick(h);
  };

  const onKey = (e: KeyboardEvent) => {
    if (e.key === 'Escape') setOpen(false);
    else if (e.key === 'ArrowDown' && hits.length) {
      e.preventDefault();
      setOpen(true);
      setActive((a) => Math.min(hits.length - 1, a + 1));
    } else if (e.key === 'ArrowUp' && hits.length) {
      e.preventDefault();
      setActive((a) => Math.max(0, a - 1));
    } else if (e.key === 'Enter' && open && hits[active]) {
      e.preventDefault();
      pick(hits[active]);
    }
  };

  const shown = open && hits.length > 0;
  return (
    <div class="search" ref={box}>
      <input
        type="search"
        placeholder="Search a symbol or a company, e.g. AAPL, Apple, bitcoin, euro"
        aria-label="Search tickers"
        {...(comboboxAttributes(shown) as object)}
        data-testid="ticker-search"
        value={q}
        autocomplete="off"
        onInput={(e) => {
          picked.current = undefined;
          setQ(e.currentTarget.value);
        }}
        onFocus={() => hits.length && setOpen(true)}
        onKeyDown={onKey}
      />
      {shown && (
        <ul class="options" role="listbox" id="ticker-options" data-testid="ticker-options">
          {hits.map((h, i) => (
            <li role="option" aria-selected={i === active} class={i === active ? 'active' : ''} data-testid="ticker-option" onMouseDown={(e) => e.preventDefault()} onClick={() => pick(h)}>
              <span class="option-ticker">{h.ticker}</span>
              <span class="option-name">{h.name}</span>
              <span class="option-market">{h.market}</span>
            </li>
          ))}
        </ul>
      )}
      <ErrorLine error={error} />
    </div>
  );
}
