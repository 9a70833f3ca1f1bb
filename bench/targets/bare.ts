// Benchmark baseline: a bare node:http server answering fixed bytes from memory by path.
// Args: <json file mapping path -> { body: base64, headers }> [--same-headers].
// By default it sends the body with Content-Type and Content-Length only; with --same-headers it
// sends every header Tickerbase sent with that body too (request id and ETag as recorded), so the
// bytes on the wire are the same and the comparison isolates the server's own work.
import { createServer, type OutgoingHttpHeaders } from 'node:http';
import { readFileSync } from 'node:fs';

interface Recorded {
  body: string;
  headers: Record<string, string>;
}

const sameHeaders = process.argv.includes('--same-headers');
// node adds these itself, as it does for every server
const NODE_OWN = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);
const answers = new Map<string, { body: Buffer; headers: OutgoingHttpHeaders }>(
  Object.entries(JSON.parse(readFileSync(process.argv[2], 'utf8')) as Record<string, Recorded>).map(([p, r]) => {
    const body = Buffer.from(r.body, 'base64');
    const headers: OutgoingHttpHeaders = sameHeaders
      ? Object.fromEntries(Object.entries(r.headers).filter(([name]) => !NODE_OWN.has(name)))
      : { 'content-type': 'application/json; charset=utf-8' };
    headers['content-length'] = body.length;
    return [p, { body, headers }];
  }),
);
const server = createServer((req, res) => {
  const answer = answers.get((req.url ?? '').split('?')[0]);
  if (!answer) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, answer.headers);
  res.end(answer.body);
});
server.listen(0, '127.0.0.1', () => {
  const a = server.address() as { port: number };
  process.stdout.write(`LISTENING http://127.0.0.1:${a.port}\n`);
});
process.once('SIGTERM', () => server.close(() => process.exit(0)));
