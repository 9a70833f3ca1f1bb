import type { Static, TSchema } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { presentedKey } from './auth.js';
import type { RouteMeta, ServerContext } from './context.js';
import { Envelope, ErrorBody } from './schemas.js';

export interface RouteSpec<Q extends TSchema, P extends TSchema> extends Omit<RouteMeta, 'url'> {
  url: string;
  /** Other paths serving the same operation (upstream spellings). */
  aliases?: string[];
  operationId: string;
  summary: string;
  tags: string[];
  description?: string;
  querystring?: Q;
  params?: P;
  /** Schema of the inner body (what upstream sends; wrapped in {ok,data} unless native). */
  response: TSchema;
  /** Default true. */
  auth?: boolean;
  /** The body carries no status/request_id (market status, holidays). */
  plain?: boolean;
  handler: (args: {
    query: Static<Q>;
    params: Static<P>;
    req: FastifyRequest;
    reply: FastifyReply;
  }) => Promise<unknown>;
}

/**
 * Registers a GET operation: TypeBox schemas for validation, serialization and OpenAPI, key
 * authentication and guards before validation, and the envelope around whatever the handler returns.
 */
export function getRoute<Q extends TSchema, P extends TSchema>(app: FastifyInstance, ctx: ServerContext, spec: RouteSpec<Q, P>): void {
  const wrapped = ctx.config.envelope === 'wrapped';
  const meta: RouteMeta = { url: spec.url, dataset: spec.dataset, market: spec.market };
  const okSchema = wrapped ? Envelope(spec.response, true) : spec.response;
  const errSchema = wrapped ? Envelope(ErrorBody, false) : ErrorBody;
  const auth = spec.auth !== false;

  for (const [i, url] of [spec.url, ...(spec.aliases ?? [])].entries()) {
    app.route({
      method: 'GET',
      url,
      schema: {
        operationId: i === 0 ? spec.operationId : `${spec.operationId}Alias${i}`,
        summary: spec.summary,
        description: i === 0 ? spec.description : `Alias of ${spec.url}.`,
        tags: spec.tags,
        ...(spec.querystring ? { querystring: spec.querystring } : {}),
        ...(spec.params ? { params: spec.params } : {}),
        ...(auth ? { security: [{ apiKeyQuery: [] }, { apiKeyHeader: [] }, { bearer: [] }] } : {}),
        response: { 200: okSchema, '4xx': errSchema, '5xx': errSchema },
      },
      onRequest: auth
        ? async (req) => {
            req.apiKey = await ctx.auth.authenticate(presentedKey(req));
            for (const guard of ctx.guards) await guard(req, meta);
          }
        : undefined,
      handler: async (req, reply) => {
        const body = await spec.handler({ query: req.query as Static<Q>, params: req.params as Static<P>, req, reply });
        if (reply.sent) return reply;
        const inner = spec.plain || Array.isArray(body) || typeof body !== 'object' || body === null
          ? body
          : { status: 'OK', request_id: req.id, ...(body as object) };
        return wrapped ? { ok: true, data: inner } : inner;
      },
    });
  }
}

/** Absolute base URL for links in bodies: the configured public URL, else the request's own. */
export function baseUrl(ctx: ServerContext, req: FastifyRequest): string {
  return ctx.config.publicUrl ?? `${req.protocol}://${req.host}`;
}

/** next_url: same path (or another), with only the cursor in the query: never the key. */
export function nextUrl(ctx: ServerContext, req: FastifyRequest, cursor: string, path?: string): string {
  const p = path ?? req.url.split('?')[0];
  return `${baseUrl(ctx, req)}${p}?cursor=${cursor}`;
}
