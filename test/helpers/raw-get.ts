import { request } from 'node:http';

/** An answer as it came over the socket: status, headers and the body's bytes as sent. */
export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** One request over a real socket (node:http, no decompression, no redirects). */
export function rawGet(url: string, headers: Record<string, string>, method = 'GET'): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}
