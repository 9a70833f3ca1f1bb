// Prometheus metrics of the upstream relay: whether each market's upstream connection is live in
// this process, why it stopped when upstream refused it, and what went through it.
import { Counter, Gauge } from 'prom-client';
import { registry } from '../../server/metrics.js';

export const relayUpstreamUp = new Gauge({
  name: 'tickerbase_relay_upstream_up',
  help: "Whether this process holds the market's upstream feed connection and it is live (1), or holds it and it is down (0)",
  labelNames: ['market'] as const,
  registers: [registry],
});

export const relayUpstreamStopped = new Gauge({
  name: 'tickerbase_relay_upstream_stopped',
  help: 'The upstream feed refused the connection for a reason retrying cannot mend (auth_failed, max_connections): 1 while so',
  labelNames: ['market', 'reason'] as const,
  registers: [registry],
});

export const relayEvents = new Counter({
  name: 'tickerbase_relay_events_total',
  help: 'Events received from the upstream feed and passed on to local subscribers',
  labelNames: ['market'] as const,
  registers: [registry],
});

export const relayReconnects = new Counter({
  name: 'tickerbase_relay_upstream_losses_total',
  help: 'Times the live upstream feed connection was lost',
  labelNames: ['market'] as const,
  registers: [registry],
});

export const relayGapRows = new Counter({
  name: 'tickerbase_relay_gap_rows_total',
  help: 'Rows stored by gap repair from the upstream REST API, by kind (trades, bars)',
  labelNames: ['market', 'kind'] as const,
  registers: [registry],
});
