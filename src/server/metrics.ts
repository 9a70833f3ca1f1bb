import cluster from 'node:cluster';
import { randomUUID } from 'node:crypto';
import { importRows } from '../ingest/metrics.js';
import { AggregatorRegistry, collectDefaultMetrics, Counter, Gauge, Registry, type Metric } from 'prom-client';

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

const DURATION_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** One (route, method) series of the duration histogram: per-bucket counts (the last is +Inf). */
interface DurationSeries {
  labels: { route: string; method: string };
  buckets: Float64Array;
  sum: number;
  count: number;
}

/**
 * The request duration histogram, counted in place: prom-client's Histogram.observe() validates
 * and hashes the labels and looks the bucket up by its bound as a string key on every call, which
 * the ticker overview's benchmark showed. Registered as a metric of the registry, so /metrics and
 * the cluster aggregation expose it like prom-client's own (cumulative `le` buckets, sum, count).
 */
class DurationHistogram {
  readonly name = 'tickerbase_http_request_duration_seconds';
  readonly help = 'Time from receiving a request to sending its response, by route template';
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private readonly series = new Map<string, Map<string, DurationSeries>>();

  /** The series of (route, method), created on first use. */
  seriesOf(route: string, method: string): DurationSeries {
    let byMethod = this.series.get(route);
    if (byMethod === undefined) this.series.set(route, (byMethod = new Map()));
    let s = byMethod.get(method);
    if (s === undefined) byMethod.set(method, (s = { labels: { route, method }, buckets: new Float64Array(DURATION_BUCKETS.length + 1), sum: 0, count: 0 }));
    return s;
  }

  async get() {
    const values: { labels: Record<string, string | number>; value: number; metricName: string }[] = [];
    for (const byMethod of this.series.values()) {
      for (const s of byMethod.values()) {
        let acc = 0;
        DURATION_BUCKETS.forEach((le, i) => {
          acc += s.buckets[i]!;
          values.push({ labels: { le, ...s.labels }, value: acc, metricName: `${this.name}_bucket` });
        });
        values.push({ labels: { le: '+Inf', ...s.labels }, value: s.count, metricName: `${this.name}_bucket` });
        values.push({ labels: { ...s.labels }, value: s.sum, metricName: `${this.name}_sum` });
        values.push({ labels: { ...s.labels }, value: s.count, metricName: `${this.name}_count` });
      }
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  reset(): void {
    this.series.clear();
  }
}

function observeDuration(s: DurationSeries, seconds: number): void {
  let i = 0;
  while (i < DURATION_BUCKETS.length && seconds > DURATION_BUCKETS[i]!) i++;
  s.buckets[i]!++;
  s.sum += seconds;
  s.count++;
}

export const httpDuration = new DurationHistogram();
registry.registerMetric(httpDuration as unknown as Metric);

export const rateLimitRejections = new Counter({
  name: 'tickerbase_rate_limit_rejections_total',
  help: 'Requests refused with 429, by plan',
  labelNames: ['plan'] as const,
  registers: [registry],
});

// Rows written by importers: the counter lives with the importers, the registry exposes it.
registry.registerMetric(importRows);

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
 * Request count and duration per (route, method, status), kept per (route, method) in maps keyed
 * by the strings Fastify hands over (the same string objects every time, so no label string is
 * built per request). Counts go to prom-client when /metrics is read (its inc() hashes and
 * validates the labels on every call); durations are counted in place in httpDuration.
 */
export class RequestMetrics {
  private readonly routes = new Map<string, Map<string, { duration: DurationSeries; byStatus: Map<number, number> }>>();

  constructor() {
    pendingRequestCounts.add(this);
  }

  observe(route: string, method: string, status: number, seconds: number): void {
    let byMethod = this.routes.get(route);
    if (byMethod === undefined) this.routes.set(route, (byMethod = new Map()));
    let r = byMethod.get(method);
    if (r === undefined) byMethod.set(method, (r = { duration: httpDuration.seriesOf(route, method), byStatus: new Map() }));
    r.byStatus.set(status, (r.byStatus.get(status) ?? 0) + 1);
    observeDuration(r.duration, seconds);
  }

  /** Moves the counts into the registry (called before every read of it). */
  flush(): void {
    for (const byMethod of this.routes.values()) {
      for (const [method, r] of byMethod) {
        for (const [status, n] of r.byStatus) httpRequests.inc({ route: r.duration.labels.route, method, status: String(status) }, n);
        r.byStatus.clear();
      }
    }
  }

  /** Stops counting into the registry (the app closed), after handing over what is pending. */
  close(): void {
    this.flush();
    pendingRequestCounts.delete(this);
  }
}

const pendingRequestCounts = new Set<RequestMetrics>();

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
