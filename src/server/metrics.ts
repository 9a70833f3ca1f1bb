import cluster from 'node:cluster';
import { randomUUID } from 'node:crypto';
import { AggregatorRegistry, collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

// Prometheus metrics for the whole process (one registry, shared by every app in it). Under
// `serve --workers N` a scrape of /metrics on any worker returns the sum over all workers: the
// worker asks the cluster primary, which gathers every worker's registry (prom-client's
// AggregatorRegistry) and answers over IPC.

export const registry = new Registry();
collectDefaultMetrics({ register: registry, prefix: 'tickerbase_' });

export const httpRequests = new Counter({
  name: 'tickerbase_http_requests_total',
  help: 'HTTP requests answered, by route template, method and status code',
  labelNames: ['route', 'method', 'status'] as const,
  registers: [registry],
  // counts kept by RequestMetrics since the last read
  collect() {
    for (const m of pendingRequestCounts) m.flush();
  },
});

export const httpDuration = new Histogram({
  name: 'tickerbase_http_request_duration_seconds',
  help: 'Time from receiving a request to sending its response, by route template',
  labelNames: ['route', 'method'] as const,
  buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [registry],
});

export const rateLimitRejections = new Counter({
  name: 'tickerbase_rate_limit_rejections_total',
  help: 'Requests refused with 429, by plan',
  labelNames: ['plan'] as const,
  registers: [registry],
});

/** Rows written by importers; call `importRows.inc({ dataset }, n)` from an import. */
export const importRows = new Counter({
  name: 'tickerbase_import_rows_total',
  help: 'Rows written by imports, by data set',
  labelNames: ['dataset'] as const,
  registers: [registry],
});

export const storeErrors = new Counter({
  name: 'tickerbase_store_errors_total',
  help: 'Store failures seen while answering requests or writing usage: unavailable (engine unreachable) or other',
  labelNames: ['kind'] as const,
  registers: [registry],
});

export const dependencyUp = new Gauge({
  name: 'tickerbase_dependency_up',
  help: 'Whether a dependency answered the last readiness check (1) or not (0)',
  labelNames: ['dependency'] as const,
  registers: [registry],
  aggregator: 'min',
});

/**
 * Request count and duration per (route, method, status). Counts are summed here and handed to
 * prom-client when /metrics is read (its inc() hashes and validates the labels on every call);
 * durations go to the histogram at once.
 */
export class RequestMetrics {
  private readonly pending = new Map<string, { labels: { route: string; method: string; status: string }; n: number }>();
  private readonly durationLabels = new Map<string, { route: string; method: string }>();

  constructor() {
    pendingRequestCounts.add(this);
  }

  observe(route: string, method: string, status: number, seconds: number): void {
    const id = `${status} ${method} ${route}`;
    const p = this.pending.get(id);
    if (p !== undefined) p.n++;
    else this.pending.set(id, { labels: { route, method, status: String(status) }, n: 1 });
    const dk = `${method} ${route}`;
    let d = this.durationLabels.get(dk);
    if (d === undefined) {
      d = { route, method };
      if (this.durationLabels.size < 10_000) this.durationLabels.set(dk, d);
    }
    httpDuration.observe(d, seconds);
    if (this.pending.size > 10_000) this.flush();
  }

  /** Moves the counts into the registry (called before every read of it). */
  flush(): void {
    for (const p of this.pending.values()) httpRequests.inc(p.labels, p.n);
    this.pending.clear();
  }

  /** Stops counting into the registry (the app closed), after handing over what is pending. */
  close(): void {
    this.flush();
    pendingRequestCounts.delete(this);
  }
}

const pendingRequestCounts = new Set<RequestMetrics>();

/** Counts rows an importer wrote (a helper so importers need not know prom-client). */
export function recordImportRows(dataset: string, rows: number): void {
  if (rows > 0) importRows.inc({ dataset }, rows);
}

const REQ = 'tickerbase:metrics-req';
const RES = 'tickerbase:metrics-res';

interface MetricsMessage {
  type: string;
  id: string;
  text?: string;
  error?: string;
}

/** In the cluster primary: answers workers' requests for the aggregated metrics. */
export function serveClusterMetrics(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on('message', (worker, msg: MetricsMessage) => {
    if (!msg || msg.type !== REQ) return;
    aggregator
      .clusterMetrics()
      .then((text) => worker.send({ type: RES, id: msg.id, text }))
      .catch((err: Error) => worker.send({ type: RES, id: msg.id, error: err.message }));
  });
}

let workerSetUp = false;

function askPrimary(): Promise<string> {
  joinClusterMetrics();
  return new Promise((resolve, reject) => {
    const id = randomUUID();
    const timer = setTimeout(() => {
      process.off('message', onMessage);
      reject(new Error('the cluster primary did not answer with metrics'));
    }, 5000);
    const onMessage = (msg: MetricsMessage) => {
      if (!msg || msg.type !== RES || msg.id !== id) return;
      clearTimeout(timer);
      process.off('message', onMessage);
      if (msg.error) reject(new Error(msg.error));
      else resolve(msg.text ?? '');
    };
    process.on('message', onMessage);
    process.send?.({ type: REQ, id });
  });
}

/** Prepares a cluster worker to contribute its metrics (call once at worker start). */
export function joinClusterMetrics(): void {
  if (cluster.isWorker && !workerSetUp) {
    workerSetUp = true;
    AggregatorRegistry.setRegistries([registry]);
    new AggregatorRegistry(); // installs the worker's responder to the primary's requests
  }
}

/** The exposition text: this process's registry, or the whole cluster's in a worker. */
export async function metricsText(): Promise<string> {
  if (cluster.isWorker && process.send) return askPrimary();
  return registry.metrics();
}

export const metricsContentType = registry.contentType;
