// Benchmark baseline: a bare node:http server answering fixed bytes from memory by path.
// Args: <json file mapping path -> base64 body>.
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';

const bodies = new Map<string, Buffer>(
  Object.entries(JSON.parse(readFileSync(process.argv[2], 'utf8')) as Record<string, string>).map(([p, b]) => [p, Buffer.from(b, 'base64')]),
);
const server = createServer((req, res) => {
  const body = bodies.get((req.url ?? '').split('?')[0]);
  if (!body) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
  res.end(body);
});
server.listen(0, '127.0.0.1', () => {
  const a = server.address() as { port: number };
  process.stdout.write(`LISTENING http://127.0.0.1:${a.port}\n`);
});
process.once('SIGTERM', () => server.close(() => process.exit(0)));
