import { useEffect, useState } from 'preact/hooks';
import { call } from '../api';
import { Card, ErrorLine, message } from '../components';

// The operator's view of upstream: calls made, refused (429) and failed, what each data set's
// ledger covers, the latest failures, and read-through's counts in this server process.

interface DatasetRow {
  dataset: string;
  status: string;
  units: number;
  tickers: number;
  rows: number;
  calls: number;
  firstDay: string;
  lastDay: string;
  lastUpdatedUtc: string;
}

interface UpstreamStatus {
  read_through: boolean;
  counters: { calls: number; refused: number; failed: number; rows: number };
  datasets: DatasetRow[];
  failures: { dataset: string; ticker: string; from: string; to: string; error?: string; updatedUtc: string }[];
  read_through_stats?: { misses: number; fetched: number; coalesced: number; negativeHits: number; refused: number; failed: number };
}

const n = (v: number) => v.toLocaleString('en-US');

export function UpstreamStatusCard() {
  const [s, setS] = useState<UpstreamStatus>();
  const [error, setError] = useState<string>();
  useEffect(() => void call<UpstreamStatus>('GET', 'admin/upstream').then(setS, (e) => setError(message(e))), []);
  if (error) return <ErrorLine error={error} />;
  if (!s) return null;
  const rt = s.read_through_stats;
  return (
    <Card title="Upstream">
      <p data-testid="upstream-counters">
        Read-through {s.read_through ? 'on' : 'off'} · {n(s.counters.calls)} upstream calls made, {n(s.counters.refused)} refused (429), {n(s.counters.failed)} failed · {n(s.counters.rows)} records stored
        {rt ? ` · this process: ${n(rt.misses)} misses, ${n(rt.coalesced)} joined a fetch under way, ${n(rt.negativeHits)} answered from remembered absences` : ''}
      </p>
      {s.datasets.length === 0 ? (
        <p>Nothing fetched from upstream yet (tickerbase sync rest).</p>
      ) : (
        <table data-testid="upstream-datasets">
          <thead>
            <tr>
              <th>Data set</th>
              <th>Status</th>
              <th>Units</th>
              <th>Tickers</th>
              <th>Records</th>
              <th>Calls</th>
              <th>Days</th>
            </tr>
          </thead>
          <tbody>
            {s.datasets.map((d) => (
              <tr>
                <td>{d.dataset}</td>
                <td>{d.status}</td>
                <td>{n(d.units)}</td>
                <td>{n(d.tickers)}</td>
                <td>{n(d.rows)}</td>
                <td>{n(d.calls)}</td>
                <td>{d.firstDay ? `${d.firstDay} to ${d.lastDay}` : 'undated'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {s.failures.length > 0 && (
        <ul data-testid="upstream-failures">
          {s.failures.map((f) => (
            <li>
              {f.dataset} {f.ticker}
              {f.from ? ` ${f.from} to ${f.to}` : ''}: {f.error}
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
