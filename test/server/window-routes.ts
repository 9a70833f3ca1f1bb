import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { ServerContext } from '../../src/server/context.js';
import { applyDataWindow, entitled, noteDataCut } from '../../src/server/entitlements.js';
import { getRoute } from '../../src/server/route.js';

// Small time-series routes for the entitlement tests: they return whatever rows the test puts in
// `rows`, so the tests control exactly which times the plan's window must cut.

export interface WindowRows {
  bars: { t: number; c: number }[];
  ticks: { sip_timestamp: bigint; price: number }[];
  values: { timestamp: number; value: number }[];
  nextUrl?: string;
}

export function addWindowRoutes(app: FastifyInstance & { ctx: ServerContext }, rows: WindowRows): void {
  const ctx = app.ctx;
  getRoute(app, ctx, {
    url: '/test/bars/:ticker/:from/:to',
    operationId: 'TestBars',
    summary: 'bars',
    tags: ['Test'],
    dataset: 'aggregates',
    market: (req) => ((req.params as { ticker: string }).ticker.startsWith('X:') ? 'crypto' : 'stocks'),
    params: Type.Object({ ticker: Type.String(), from: Type.String(), to: Type.String() }),
    response: Type.Object({
      status: Type.String(),
      request_id: Type.String(),
      resultsCount: Type.Integer(),
      results: Type.Array(Type.Object({ t: Type.Integer(), c: Type.Number() })),
      next_url: Type.Optional(Type.String()),
    }),
    handler: async () => ({ resultsCount: rows.bars.length, results: [...rows.bars], ...(rows.nextUrl ? { next_url: rows.nextUrl } : {}) }),
  });
  getRoute(app, ctx, {
    url: '/test/ticks/:ticker',
    operationId: 'TestTicks',
    summary: 'ticks',
    tags: ['Test'],
    dataset: 'trades',
    market: 'stocks',
    params: Type.Object({ ticker: Type.String() }),
    response: Type.Object({
      status: Type.String(),
      request_id: Type.String(),
      results: Type.Array(Type.Object({ sip_timestamp: Type.Integer(), price: Type.Number() })),
      next_url: Type.Optional(Type.String()),
    }),
    handler: async () => ({ results: [...rows.ticks], ...(rows.nextUrl ? { next_url: rows.nextUrl } : {}) }),
  });
  getRoute(app, ctx, {
    url: '/test/indicator/:ticker',
    operationId: 'TestIndicator',
    summary: 'indicator',
    tags: ['Test'],
    dataset: 'indicators',
    market: 'stocks',
    params: Type.Object({ ticker: Type.String() }),
    response: Type.Object({
      status: Type.String(),
      request_id: Type.String(),
      results: Type.Object({ values: Type.Array(Type.Object({ timestamp: Type.Integer(), value: Type.Number() })) }),
    }),
    handler: async () => ({ results: { values: [...rows.values] } }),
  });
  // A snapshot-like route that bounds its data itself and reports what it left out.
  getRoute(app, ctx, {
    url: '/test/snapshot/:ticker',
    operationId: 'TestSnapshot',
    summary: 'snapshot',
    tags: ['Test'],
    dataset: 'snapshots',
    market: 'stocks',
    params: Type.Object({ ticker: Type.String() }),
    response: Type.Object({
      status: Type.String(),
      request_id: Type.String(),
      asOf: Type.Number(),
      hasQuote: Type.Boolean(),
      results: Type.Array(Type.Object({ t: Type.Integer() })),
    }),
    handler: async ({ req }) => {
      const w = applyDataWindow(req);
      const asOf = Math.min(ctx.now(), w.latestMs);
      if (w.delayed) noteDataCut(req, { delay: true });
      // rows newer than asOf would be cut by the generic hook; applyDataWindow turned it off
      return { asOf, hasQuote: entitled(req, 'nbbo'), results: [...rows.bars] };
    },
  });
}
