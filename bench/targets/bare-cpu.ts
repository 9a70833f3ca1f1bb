// Benchmark baseline: a bare node:http server answering recorded responses (headers and body) by
// full path and query, from memory. Args: <json file mapping path -> { body: base64, headers }>.
// Prints `LISTENING <url>`; answers the parent's IPC message 'cpu' with process.cpuUsage().
import { createServer, type OutgoingHttpHeaders } from 'node:http';
import { readFileSync } from 'node:fs';

// node adds these itself, as it does for every server
const NODE_OWN = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);
const answers = new Map<string, { body: Buffer; headers: OutgoingHttpHeaders }>(
  Object.entries(JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as Record<string, { body: string; headers: Record<string, string> }>).map(([p, r]) => {
    const body = Buffer.from(r.body, 'base64');
    const headers: OutgoingHttpHeaders = Object.fromEntries(Object.entries(r.headers).filter(([name]) => !NODE_OWN.has(name)));
    headers['content-length'] = body.length;
    return [p, { body, headers }];
  }),
);
const server = createServer((req, res) => {
  const answer = answers.get(req.url ?? '');
  if (!answer) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, answer.headers);
  res.end(answer.body);
});
process.on('message', (m) => {
  if (m === 'cpu') process.send!(process.cpuUsage());
});
server.listen(0, '127.0.0.1', () => {
  const a = server.address() as { port: number };
  process.stdout.write(`LISTENING http://127.0.0.1:${a.port}\n`);
});
process.once('SIGTERM', () => server.close(() => process.exit(0)));
