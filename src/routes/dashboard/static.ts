import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';

// The dashboard's single-page app, built by Vite into dist/web: index.html is revalidated on every
// load (no-cache), the hashed files under assets/ are cached for a year (their names change when
// their content does). The page's policy allows only this server's own scripts, styles, images
// and API calls: no CDN, no inline script.

/** dist/web at the package root: three levels above this file, whether it runs from src/ or dist/. */
export const DEFAULT_ASSETS_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../..', 'dist', 'web');

export const DASHBOARD_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "font-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export async function staticRoutes(app: FastifyInstance, assetsDir = DEFAULT_ASSETS_DIR): Promise<void> {
  if (!existsSync(join(assetsDir, 'index.html'))) {
    // a checkout that was not built: say how to build rather than answer 404
    const notBuilt = async (_req: unknown, reply: FastifyReply) =>
      reply.code(503).type('text/plain; charset=utf-8').header('Cache-Control', 'no-store').send(`The dashboard is not built (no ${assetsDir}/index.html): run npm run build.\n`);
    app.get('/dashboard', { schema: { hide: true } }, notBuilt);
    app.get('/dashboard/*', { schema: { hide: true } }, notBuilt);
    return;
  }
  await app.register(fastifyStatic, {
    root: assetsDir,
    prefix: '/dashboard/',
    index: 'index.html',
    cacheControl: false,
    etag: true,
    lastModified: true,
    schemaHide: true,
    setHeaders: (reply, path) => {
      reply.header('cache-control', /[/\\]assets[/\\]/.test(path) ? 'public, max-age=31536000, immutable' : 'no-cache');
      reply.header('content-security-policy', DASHBOARD_CSP);
    },
  });
  // the app's entry (the router ignores the trailing slash, so this is /dashboard/ too)
  app.get('/dashboard', { schema: { hide: true } }, (_req, reply) => reply.sendFile('index.html'));
}
