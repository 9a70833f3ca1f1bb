import SerializerSelector from '@fastify/fast-json-stringify-compiler';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import { StoreBusyError, StoreUnavailableError } from '../store/driver.js';
import type { Services } from '../services/index.js';
import type { Store } from '../store/index.js';
import { envelopeOfPath } from './api-bases.js';
import { KeyAuthenticator, redactUrl } from './auth.js';
import type { RequestGuard, ServerConfig, ServerContext } from './context.js';
import { CursorCodec } from './cursor.js';
import { ApiError } from '../domain/errors.js';
import { ResponseCache } from './response-cache.js';
import { CachedHits } from './cached-hits.js';
import { envelope, sharedSerializers } from './serializer.js';
import { addStrictParameters, formatValidationError, shareParameterSchemas } from './validation.js';
import { clientErrorHandler, frameworkErrorsHandler, MAX_PARAM_LENGTH, SERVER_LIMITS } from './hardening.js';
import { requestLogController } from './logger.js';
import { isValidHost } from './public-url.js';
import { requestId } from './request-id.js';
import { setupProduction, type ProductionOptions, type ProductionRuntime } from './production.js';

/** Seconds a client is asked to wait after a 503 STORE_UNAVAILABLE (about one store deadline). */
export const STORE_RETRY_AFTER_S = 5;

/** Seconds a client is asked to wait after a 503 STORE_BUSY (an import commits a file at a time). */
export const STORE_BUSY_RETRY_AFTER_S = 1;

export interface BuildAppOptions {
  store: Store;
  config: ServerConfig;
  /** pino options, a logger instance, or false (default: false). */
  logger?: FastifyServerOptions['logger'];
  loggerInstance?: FastifyServerOptions['loggerInstance'];
  now?: () => number;
  guards?: RequestGuard[];
  /** Plans, rate limits, usage, metrics, hardening and operational routes (default: all on, built-in plans). */
  production?: ProductionOptions;
}

export interface ServerShell {
  app: FastifyInstance;
  ctx: ServerContext;
  production: ProductionRuntime;
}

/**
 * The HTTP shell without any endpoint family: the request context, error and not-found handling,
 * and the production hooks (auth guards, limits, usage, metrics, logs, hardening). The
 * composition root (src/app.ts) registers the routes on it.
 */
export async function createServer(opts: BuildAppOptions, services: Services): Promise<ServerShell> {
  const secret = await opts.store.meta.cursorSecret();
  const ctx: ServerContext = {
    store: opts.store,
    services,
    config: opts.config,
    cursors: new CursorCodec(secret),
    auth: new KeyAuthenticator(opts.store.keys),
    now: services.now,
    guards: opts.guards ?? [],
    responseCache: opts.config.responseCacheEntries === 0 ? undefined : new ResponseCache(opts.config.responseCacheEntries, opts.config.responseCacheBytes),
    basePath: '',
  };
  const hits = ctx.responseCache === undefined ? undefined : new CachedHits(ctx, ctx.responseCache.maxEntries);
  ctx.hits = hits;
  const rootEnvelope = opts.config.envelope;
  const envelopeOf = (url: string) => envelopeOfPath(url, rootEnvelope);

  const app = Fastify({
    ...(opts.loggerInstance ? { loggerInstance: opts.loggerInstance } : { logger: opts.logger ?? false }),
    genReqId: requestId,
    // cached answers to repeated requests are sent before Fastify's pipeline (cached-hits.ts)
    ...(hits ? { serverFactory: hits.serverFactory } : {}),
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, maxParamLength: MAX_PARAM_LENGTH },
    frameworkErrors: frameworkErrorsHandler(envelopeOf),
    clientErrorHandler: clientErrorHandler(envelopeOf, requestId),
    maxRequestsPerSocket: 0,
    // client addresses in logs from X-Forwarded-For only behind a proxy the operator named
    trustProxy: opts.config.trustProxy ?? false,
    ...SERVER_LIMITS, // body and header limits, timeouts
    // one line per request, with key id, route and duration, written by the production hooks
    logController: requestLogController(),
    ajv: { customOptions: { verbose: true, coerceTypes: 'array', allErrors: false } },
    schemaController: { compilersFactory: { buildSerializer: sharedSerializers(SerializerSelector()) } },
    schemaErrorFormatter: formatValidationError,
  });

  // Global hooks use the callback form: an async hook costs a promise and a microtask turn on
  // every request, which the ticker overview's benchmark shows (bench/reference.ts). The
  // X-Request-Id header is set in the app's onSend hook (production.ts, hardening.ts's send step).

  // The form of a request's answer follows its path: the root's, or a prefix's (api-bases.ts).
  // Read only where a body is written by the shell (errors, the data-window notice), never per request.
  app.decorateRequest('envelopeMode', {
    getter(this: FastifyRequest) {
      return envelopeOf(this.url);
    },
  });

  const errorBody = (req: FastifyRequest, err: ApiError) => {
    const inner = { status: err.status, request_id: req.id, code: err.code, error: err.message, message: err.message };
    return envelope(req.envelopeMode === 'wrapped', inner, false);
  };

  app.setErrorHandler((error: FastifyError | ApiError | Error, req, reply) => {
    let apiErr: ApiError;
    if (error instanceof ApiError) apiErr = error;
    else if (error instanceof StoreBusyError || (error as { cause?: unknown }).cause instanceof StoreBusyError) {
      apiErr = new ApiError('STORE_BUSY', 'The data store is busy with another writer (such as an import), so this change was not made; reads still work, try again shortly', { 'Retry-After': String(STORE_BUSY_RETRY_AFTER_S) });
    } else if (error instanceof StoreUnavailableError || (error as { cause?: unknown }).cause instanceof StoreUnavailableError) {
      apiErr = new ApiError('STORE_UNAVAILABLE', 'The data store is unavailable; try again shortly', { 'Retry-After': String(STORE_RETRY_AFTER_S) });
    } else if ((error as FastifyError).validation) {
      apiErr = new ApiError('BAD_PARAMETER', error.message);
    } else {
      const status = (error as FastifyError).statusCode;
      if (status === 413) apiErr = new ApiError('PAYLOAD_TOO_LARGE', 'Request body is too large');
      else if (status && status >= 400 && status < 500) apiErr = new ApiError('BAD_PARAMETER', error.message);
      else {
        req.log.error({ err: error }, 'unhandled error');
        apiErr = new ApiError('INTERNAL', 'Internal server error');
      }
    }
    if (apiErr.http >= 500 && apiErr.code !== 'INTERNAL') req.log.warn({ code: apiErr.code }, apiErr.message);
    reply.code(apiErr.http).headers(apiErr.headers).send(errorBody(req, apiErr));
  });

  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0];
    if (req.method !== 'GET' && req.method !== 'HEAD' && app.findRoute({ method: 'GET', url: path })) {
      const err = new ApiError('METHOD_NOT_ALLOWED', `Method ${req.method} is not allowed on ${path}; use GET`, { Allow: 'GET, HEAD' });
      reply.code(err.http).headers(err.headers).send(errorBody(req, err));
      return;
    }
    const err = new ApiError('ROUTE_NOT_FOUND', `No endpoint at ${redactUrl(path)}`);
    reply.code(err.http).send(errorBody(req, err));
  });

  // A malformed Host is refused before anything else runs (links never use it; see public-url.ts).
  app.addHook('onRequest', (req, reply, done) => {
    const host = req.headers.host;
    if (host === undefined || host === '' || isValidHost(host)) return done();
    const err = new ApiError('BAD_PARAMETER', 'The Host header is not a valid host[:port]');
    reply.code(err.http).send(errorBody(req, err));
  });

  // from the first moment of closing, Fastify answers every request (its 503 while closing)
  if (hits) {
    app.addHook('preClose', (done) => {
      hits.close();
      done();
    });
  }

  // before any route is added: integers as digits, numbers as plain decimals, no repeated parameter
  app.addHook('onRoute', addStrictParameters);
  app.addHook('onRoute', shareParameterSchemas());

  const production = await setupProduction(app, ctx, opts.production, hits);
  return { app, ctx, production };
}

/** The OpenAPI document of every route registered after this call, at /openapi.json and /docs. */
export async function registerApiDocs(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Tickerbase',
        version: '0.1.0',
        description: 'Self-hosted market data REST API with the paths, parameters and fields of the Polygon.io / Massive API.',
      },
      components: {
        securitySchemes: {
          apiKeyQuery: { type: 'apiKey', in: 'query', name: 'apiKey' },
          apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
          bearer: { type: 'http', scheme: 'bearer' },
        },
      },
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
