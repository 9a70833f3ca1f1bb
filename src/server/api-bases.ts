import type { FastifyInstance } from 'fastify';
import type { EnvelopeMode, RouteContext } from './context.js';

// The REST API is served under three bases at once: the root, in the envelope the server is
// configured with (--envelope), and two fixed prefixes that always answer in one form, so a
// client picks its form by its base URL with no restart: /upstream in upstream's bare bodies (what
// the official clients parse) and /envelope in {ok, data}. Each prefix is a Fastify plugin
// registered with that prefix over a route context whose envelope is the prefix's; everything
// that is not a route of its own (errors, unknown paths, framework and client errors) takes the
// form from the request's path through envelopeOfPath.

export interface ApiBase {
  /** Path prefix, without a trailing slash. */
  path: string;
  envelope: EnvelopeMode;
}

/** The fixed prefixes, each with the one form it answers in. */
export const API_BASES: readonly ApiBase[] = [
  { path: '/upstream', envelope: 'native' },
  { path: '/envelope', envelope: 'wrapped' },
];

/** The prefix the official clients are pointed at (upstream's bare bodies). */
export const CLIENT_BASE_PATH = '/upstream';

// A path under a prefix: the prefix, then a slash, a query or the end (the router also folds
// repeated slashes, so any number of leading slashes is accepted).
const PREFIXED = new RegExp(`^/+(${API_BASES.map((b) => b.path.slice(1)).join('|')})(?=[/?]|$)`);
const BY_NAME = new Map(API_BASES.map((b) => [b.path.slice(1), b.envelope]));

/** The form an answer to this request path (or URL path and query) is written in. */
export function envelopeOfPath(url: string, rootEnvelope: EnvelopeMode): EnvelopeMode {
  const m = PREFIXED.exec(url);
  return m ? BY_NAME.get(m[1]!)! : rootEnvelope;
}

/**
 * Registers `routes` at the root with `ctx`, then once under each fixed prefix with the prefix's
 * envelope and base path. The prefixed copies are left out of the OpenAPI document (it keeps one
 * entry per upstream path).
 */
export async function registerApiBases(
  app: FastifyInstance,
  ctx: RouteContext,
  routes: (app: FastifyInstance, ctx: RouteContext) => Promise<void>,
): Promise<void> {
  await routes(app, ctx);
  for (const base of API_BASES) {
    const scoped: RouteContext = { ...ctx, basePath: base.path, config: { ...ctx.config, envelope: base.envelope } };
    await app.register(
      async (child) => {
        child.addHook('onRoute', (route) => {
          route.schema = { ...route.schema, hide: true };
        });
        await routes(child, scoped);
      },
      { prefix: base.path },
    );
  }
}
