import type { FastifyInstance } from 'fastify';
import { API_BASES } from '../server/api-bases.js';

// GET /: what a browser opened on the server's address finds — a small page linking the
// dashboard, the API documentation and the REST API's bases. It holds no key and no account data,
// so it needs none and is the same for everyone.

export interface HomeOptions {
  /** The dashboard is served under /dashboard/. */
  dashboard: boolean;
}

const BASE_TEXT: Record<string, string> = {
  '/upstream': "upstream's own bodies: point the official clients here",
  '/envelope': 'answers wrapped as {"ok": true, "data": …}',
};

export function homePage(opts: HomeOptions): string {
  const links = [
    opts.dashboard ? '<li><a href="/dashboard/">Dashboard</a>: sign in, create keys, see usage and explore the data</li>' : '',
    '<li><a href="/docs">API documentation</a> (interactive), and the <a href="/openapi.json">OpenAPI document</a></li>',
  ].filter(Boolean);
  const bases = API_BASES.map((b) => `<li><code>${b.path}</code>: ${BASE_TEXT[b.path] ?? ''}</li>`);
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Tickerbase</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem;color:#1a1a1a}code{background:#f2f2f2;padding:0 .25rem;border-radius:3px}</style></head>
<body>
<h1>Tickerbase</h1>
<p>A self-hosted market data server speaking the Polygon.io / Massive REST API and WebSocket feed.</p>
<ul>
${links.join('\n')}
</ul>
<h2>REST API bases</h2>
<ul>
${bases.join('\n')}
<li><code>/</code>: the same paths at the root, in the form <code>--envelope</code> sets</li>
</ul>
<p>Every API request needs a key: <code>?apiKey=…</code>, <code>X-API-Key</code> or <code>Authorization: Bearer</code>.</p>
</body>
</html>
`;
}

export async function homeRoutes(app: FastifyInstance, opts: HomeOptions): Promise<void> {
  const page = homePage(opts);
  app.get('/', { schema: { hide: true } }, async (_req, reply) => reply.type('text/html; charset=utf-8').header('Cache-Control', 'no-cache').send(page));
}
