// Benchmark calibration: a bare Fastify 5 server (no hooks, no plugins, logger off) answering the
// same fixed bytes by path, to show how much of the gap to node:http the framework itself takes.
// Args: <json file mapping path -> { body: base64, headers }> (bare.ts's; the body is sent).
import Fastify from 'fastify';
import { readFileSync } from 'node:fs';

const bodies = new Map<string, Buffer>(
  Object.entries(JSON.parse(readFileSync(process.argv[2], 'utf8')) as Record<string, { body: string }>).map(([p, r]) => [p, Buffer.from(r.body, 'base64')]),
);
const app = Fastify({ logger: false });
app.get('/*', async (req, reply) => {
  const body = bodies.get(req.url.split('?')[0]!);
  if (!body) return reply.code(404).send();
  return reply.header('content-type', 'application/json; charset=utf-8').send(body);
});
const url = await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`LISTENING ${url}\n`);
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
