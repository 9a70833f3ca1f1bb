// POST /admin/publish: the operator's way to put events on the feed. Authenticated by the admin
// token (Authorization: Bearer <token> or X-Admin-Token), compared in constant time. The body is
// NDJSON events or a trades/quotes flat-file CSV (see publish-input.ts); `?market=` sets the
// market of NDJSON events whose symbol does not say it (futures).
import type { FastifyInstance } from 'fastify';
import { badParameter } from '../domain/errors.js';
import { checkAdminToken } from '../server/admin-token.js';
import { FEED_MARKETS, type FeedMarket } from './markets.js';
import { parsePublishBody, PublishInputError } from './publish-input.js';
import type { LivePublisher } from './publish.js';

/** Largest publish body: 64 MiB. */
export const PUBLISH_BODY_LIMIT = 64 * 1024 * 1024;

export async function publishRoute(app: FastifyInstance, token: string, publisher: LivePublisher, wrapped: boolean): Promise<void> {
  // publishing is on: the first publish need not wait for the store's write thread to start
  publisher.prepare();
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: PUBLISH_BODY_LIMIT }, (_req, body, done) => done(null, body));
    scope.addHook('onRequest', async (req) => {
      checkAdminToken(req, token);
    });
    scope.post<{ Querystring: { market?: string } }>('/admin/publish', { schema: { hide: true }, bodyLimit: PUBLISH_BODY_LIMIT }, async (req, reply) => {
      const market = req.query.market;
      if (market !== undefined && !(FEED_MARKETS as readonly string[]).includes(market)) {
        throw badParameter(`market must be one of: ${FEED_MARKETS.join(', ')}`);
      }
      const text = typeof req.body === 'string' ? req.body : '';
      let items;
      try {
        items = await parsePublishBody(text, market as FeedMarket | undefined);
      } catch (err) {
        if (err instanceof PublishInputError) throw badParameter(`publish body ${err.message}`);
        throw err;
      }
      const result = await publisher.publish(items);
      const inner = { status: 'OK', request_id: req.id, ...result };
      return reply.header('Cache-Control', 'no-store').send(wrapped ? { ok: true, data: inner } : inner);
    });
  });
}
