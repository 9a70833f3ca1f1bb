import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { DashboardDeps } from './deps.js';
import { answer, dashboardSchema, Ok } from './schemas.js';

// The operator's view of upstream (operators only): what the ledger covers per data set, the
// upstream calls made, refused and failed, the latest failures, and read-through's counts.

const Counters = Type.Object({ calls: Type.Integer(), refused: Type.Integer(), failed: Type.Integer(), rows: Type.Integer() });
const DatasetRow = Type.Object({
  dataset: Type.String(),
  status: Type.String(),
  units: Type.Integer(),
  tickers: Type.Integer(),
  rows: Type.Integer(),
  calls: Type.Integer(),
  firstDay: Type.String(),
  lastDay: Type.String(),
  lastUpdatedUtc: Type.String(),
});
const Failure = Type.Object({
  dataset: Type.String(),
  ticker: Type.String(),
  from: Type.String(),
  to: Type.String(),
  error: Type.Optional(Type.String()),
  updatedUtc: Type.String(),
});
const Stats = Type.Object({
  misses: Type.Integer(),
  fetched: Type.Integer(),
  coalesced: Type.Integer(),
  negativeHits: Type.Integer(),
  refused: Type.Integer(),
  failed: Type.Integer(),
});
const UpstreamBody = Ok({
  read_through: Type.Boolean(),
  counters: Counters,
  datasets: Type.Array(DatasetRow),
  failures: Type.Array(Failure),
  read_through_stats: Type.Optional(Stats),
});

export async function upstreamStatusRoutes(app: FastifyInstance, d: DashboardDeps): Promise<void> {
  const { ctx, session } = d;
  app.get(
    '/dashboard/api/admin/upstream',
    { preHandler: session.requireAdmin, schema: dashboardSchema(ctx, { summary: 'Data fetched from upstream, what is covered, and upstream calls made and refused (operators only)', response: UpstreamBody }) },
    async (req, reply) => {
      const empty = { read_through: false, counters: { calls: 0, refused: 0, failed: 0, rows: 0 }, datasets: [], failures: [] };
      return answer(ctx, req, reply, d.upstreamStatus ? { ...(await d.upstreamStatus()) } : empty);
    },
  );
}
