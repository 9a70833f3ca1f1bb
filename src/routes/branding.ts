import { join } from 'node:path';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RouteContext } from '../server/context.js';
import { getRoute } from '../server/route.js';
import type { ServedFile } from '../services/branding.js';

/** Default branding directory for a data directory; `serve --branding-dir` overrides it. */
export const defaultBrandingDir = (dataDir: string): string => join(dataDir, 'branding');

function etagMatches(header: string | string[] | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const value = Array.isArray(header) ? header.join(',') : header;
  return value.split(',').some((t) => {
    const v = t.trim();
    return v === '*' || v === etag || v === `W/${etag}`;
  });
}

/**
 * Sends the bytes (or 304) and resolves once the response has ended, so that the route wrapper
 * sees `reply.sent` and adds no JSON envelope.
 */
async function sendImage(req: FastifyRequest, reply: FastifyReply, f: ServedFile): Promise<FastifyReply> {
  // The images need a key, so shared caches must not keep them.
  reply.header('Cache-Control', 'private, max-age=86400');
  reply.header('ETag', f.etag);
  reply.header('X-Content-Type-Options', 'nosniff');
  // An SVG opened directly must not run scripts or load anything.
  if (f.contentType === 'image/svg+xml') reply.header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox");
  if (etagMatches(req.headers['if-none-match'], f.etag)) await reply.code(304).send();
  else await reply.type(f.contentType).send(f.bytes);
  return reply;
}

const FileParams = Type.Object({ filename: Type.String({ minLength: 1, maxLength: 500, description: 'a file name' }) });
const UpstreamParams = Type.Object({
  domain: Type.String({ minLength: 1, maxLength: 500, description: 'the base64url company domain' }),
  file: Type.String({ minLength: 1, maxLength: 500, description: 'a file name' }),
});
const ImageBytes = Type.String({ description: 'The image bytes (image/svg+xml, image/png, image/jpeg, image/webp).' });

export async function brandingRoutes(app: FastifyInstance, ctx: RouteContext): Promise<void> {
  for (const kind of ['icon', 'logo'] as const) {
    getRoute(app, ctx, {
      url: `/v1/reference/company-branding/${kind}/:filename`,
      operationId: kind === 'icon' ? 'GetBrandingIcon' : 'GetBrandingLogo',
      summary: `Company branding ${kind}`,
      description:
        `The ${kind} image a ticker overview's \`branding.${kind}_url\` points at, from the server's branding directory. ` +
        'Needs a key like every endpoint (append `apiKey=` for <img> tags). Sends Cache-Control and an ETag; If-None-Match gets 304. Unknown or unsafe names get 404.',
      tags: ['Reference'],
      dataset: 'reference',
      market: 'stocks',
      params: FileParams,
      response: ImageBytes,
      plain: true,
      handler: async ({ params, req, reply }) => {
        return sendImage(req, reply, await ctx.services.branding.file(params.filename));
      },
    });
  }

  getRoute(app, ctx, {
    url: '/v1/reference/company-branding/:domain/images/:file',
    operationId: 'GetBrandingImage',
    summary: 'Company branding image (upstream path)',
    description: 'Upstream spelling: serves `<branding dir>/<domain>/<file>`, where `domain` is the base64url company domain.',
    tags: ['Reference'],
    dataset: 'reference',
    market: 'stocks',
    params: UpstreamParams,
    response: ImageBytes,
    plain: true,
    handler: async ({ params, req, reply }) => {
      return sendImage(req, reply, await ctx.services.branding.domainFile(params.domain, params.file));
    },
  });
}
