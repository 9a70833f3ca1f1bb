import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { open, realpath } from 'node:fs/promises';
import { extname, join, sep } from 'node:path';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RouteContext } from '../server/context.js';
import { ApiError, notFound } from '../domain/errors.js';
import { getRoute } from '../server/route.js';

// Branding images are served from one directory and nothing else: a name must match a strict
// pattern (no separators, no '..', no NUL), carry an image extension, and its real path (after
// following any symlink) must still lie inside the directory's real path.

/** Default branding directory for a data directory; `serve --branding-dir` overrides it. */
export const defaultBrandingDir = (dataDir: string): string => join(dataDir, 'branding');

const FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
/** The upstream path's base64url domain segment, e.g. d3d3LmFwcGxlLmNvbQ. */
const DOMAIN_SEGMENT = /^[A-Za-z0-9_-]{1,128}$/;
const MAX_BYTES = 8 * 1024 * 1024;

export const IMAGE_TYPES: Record<string, string> = {
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.gif': 'image/gif',
  '.ico': 'image/x-icon',
};

const NOT_FOUND_MESSAGE = 'Branding image not found.';

interface ServedFile {
  bytes: Buffer;
  etag: string;
  contentType: string;
}

function safeName(name: string, pattern: RegExp): boolean {
  return pattern.test(name) && !name.includes('..');
}

/**
 * Reads `<dir>/<segments...>` when every segment is a safe name and the file's real path stays
 * inside the directory's real path; otherwise (or when absent) throws 404.
 */
async function readBrandingFile(dir: string | undefined, segments: { value: string; pattern: RegExp }[]): Promise<ServedFile> {
  if (!dir) throw notFound(NOT_FOUND_MESSAGE);
  for (const s of segments) if (!safeName(s.value, s.pattern)) throw notFound(NOT_FOUND_MESSAGE);
  const name = segments[segments.length - 1]!.value;
  const contentType = IMAGE_TYPES[extname(name).toLowerCase()];
  if (!contentType) throw notFound(NOT_FOUND_MESSAGE);
  let file: Awaited<ReturnType<typeof open>> | undefined;
  try {
    const root = await realpath(dir);
    const real = await realpath(join(root, ...segments.map((s) => s.value)));
    if (!real.startsWith(root + sep)) throw notFound(NOT_FOUND_MESSAGE);
    // O_NOFOLLOW: the resolved path must not have become a symlink since it was checked.
    file = await open(real, constants.O_RDONLY | constants.O_NOFOLLOW);
    const st = await file.stat();
    if (!st.isFile() || st.size > MAX_BYTES) throw notFound(NOT_FOUND_MESSAGE);
    const bytes = await file.readFile();
    const etag = `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"`;
    return { bytes, etag, contentType };
  } catch (err) {
    if (err instanceof ApiError) throw err;
    // ENOENT, ENOTDIR, ELOOP, EACCES...: the caller learns only that there is no such image.
    throw notFound(NOT_FOUND_MESSAGE);
  } finally {
    await file?.close();
  }
}

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
        const f = await readBrandingFile(ctx.config.brandingDir, [{ value: params.filename, pattern: FILE_NAME }]);
        return sendImage(req, reply, f);
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
      const f = await readBrandingFile(ctx.config.brandingDir, [
        { value: params.domain, pattern: DOMAIN_SEGMENT },
        { value: params.file, pattern: FILE_NAME },
      ]);
      return sendImage(req, reply, f);
    },
  });
}
