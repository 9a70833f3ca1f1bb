// A small S3-compatible server for the flat-file sync's tests and benchmark, on 127.0.0.1 with an
// ephemeral port, path-style only (ENDPOINT/BUCKET/KEY): ListObjectsV2 (prefix, max-keys,
// continuation tokens), GetObject and HeadObject with ETags (If-Match honoured).
//
// Every request must carry an AWS Signature V4 Authorization header: an unknown access key is
// answered InvalidAccessKeyId and a signature made with another secret SignatureDoesNotMatch, as
// S3 does, so the client's real signing is exercised. Objects can be refused (403 AccessDenied),
// republished (new body, new ETag) and served slowly or stalled mid-body.
import { createHash, createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeS3Options {
  bucket?: string;
  accessKey?: string;
  secretKey?: string;
  /** Keys per ListObjectsV2 page at most (default 1000, as S3); small values exercise paging. */
  pageSize?: number;
}

interface StoredObject {
  body: Buffer;
  etag: string;
  lastModified: Date;
}

export interface RequestLogEntry {
  method: string;
  /** The path without the query (`/bucket/key`, URI-encoded as sent). */
  path: string;
  query: URLSearchParams;
  status: number;
}

export class FakeS3 {
  readonly bucket: string;
  readonly accessKey: string;
  readonly secretKey: string;
  readonly requests: RequestLogEntry[] = [];
  private readonly objects = new Map<string, StoredObject>();
  private readonly denied = new Set<string>();
  private readonly stalled = new Set<string>();
  private pageSize: number;
  /** Milliseconds to wait between chunks of 64 KiB of an object's body (0: none). */
  chunkDelayMs = 0;
  /** Milliseconds to wait before answering a listing (0: none). */
  listDelayMs = 0;
  private server: Server | undefined;
  private version = 0;
  url = '';

  constructor(opts: FakeS3Options = {}) {
    this.bucket = opts.bucket ?? 'flatfiles';
    this.accessKey = opts.accessKey ?? 'AKIAFAKEFLATFILES';
    this.secretKey = opts.secretKey ?? 'fake-secret-key';
    this.pageSize = opts.pageSize ?? 1000;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      void this.handle(req, res).catch((err: unknown) => {
        if (!res.headersSent) this.error(req, res, 500, 'InternalError', (err as Error).message);
        else res.destroy();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
  }

  /** Stores (or republishes, with a new ETag) an object. */
  put(key: string, body: Buffer | string): string {
    const data = typeof body === 'string' ? Buffer.from(body) : body;
    // Distinct per version even for the same bytes, as S3's ETag of a re-upload need not be.
    const etag = `"${createHash('md5').update(data).update(String(++this.version)).digest('hex')}"`;
    this.objects.set(key, { body: data, etag, lastModified: new Date() });
    return etag;
  }

  remove(key: string): void {
    this.objects.delete(key);
  }

  etagOf(key: string): string | undefined {
    return this.objects.get(key)?.etag;
  }

  /** GetObject and HeadObject of this key answer 403 AccessDenied (listing still shows it). */
  deny(key: string, denied = true): void {
    if (denied) this.denied.add(key);
    else this.denied.delete(key);
  }

  /** GetObject of this key sends its headers and first bytes, then nothing more. */
  stall(key: string, stalled = true): void {
    if (stalled) this.stalled.add(key);
    else this.stalled.delete(key);
  }

  setPageSize(n: number): void {
    this.pageSize = n;
  }

  /** GetObject requests made for a key. */
  gets(key: string): number {
    const path = `/${this.bucket}/${encodeKey(key)}`;
    return this.requests.filter((r) => r.method === 'GET' && r.path === path).length;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = req.url ?? '/';
    const q = raw.indexOf('?');
    const path = q < 0 ? raw : raw.slice(0, q);
    const query = new URLSearchParams(q < 0 ? '' : raw.slice(q + 1));
    // Bodies are not expected (only reads), but drain whatever comes.
    for await (const _ of req) void _;
    const auth = this.checkSignature(req, path, q < 0 ? '' : raw.slice(q + 1));
    if (auth) return this.error(req, res, 403, auth.code, auth.message, path, query);
    const segments = path.split('/').slice(1);
    const bucket = decodeURIComponent(segments[0] ?? '');
    if (bucket !== this.bucket) return this.error(req, res, 404, 'NoSuchBucket', 'The specified bucket does not exist', path, query);
    const key = segments.slice(1).map(decodeURIComponent).join('/');
    if (key === '') {
      if (req.method !== 'GET' || query.get('list-type') !== '2') return this.error(req, res, 400, 'InvalidRequest', 'only ListObjectsV2', path, query);
      if (this.listDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.listDelayMs));
      if (res.destroyed) return;
      return this.list(req, res, path, query);
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') return this.error(req, res, 405, 'MethodNotAllowed', 'read only', path, query);
    const obj = this.objects.get(key);
    if (this.denied.has(key)) return this.error(req, res, 403, 'AccessDenied', 'Access Denied', path, query);
    if (!obj) return this.error(req, res, 404, 'NoSuchKey', 'The specified key does not exist.', path, query);
    const ifMatch = req.headers['if-match'];
    if (ifMatch !== undefined && ifMatch !== obj.etag && ifMatch !== '*') {
      return this.error(req, res, 412, 'PreconditionFailed', 'At least one of the pre-conditions you specified did not hold', path, query);
    }
    this.log(req, path, query, 200);
    res.writeHead(200, {
      'content-type': 'application/x-gzip',
      'content-length': String(obj.body.length),
      etag: obj.etag,
      'last-modified': obj.lastModified.toUTCString(),
    });
    if (req.method === 'HEAD') return void res.end();
    await this.sendBody(res, obj.body, this.stalled.has(key));
  }

  private async sendBody(res: ServerResponse, body: Buffer, stall: boolean): Promise<void> {
    const CHUNK = 64 * 1024;
    if (stall) {
      // Half the body (at most a chunk), then nothing: the connection stays open until the client gives up.
      res.write(body.subarray(0, Math.min(CHUNK, Math.floor(body.length / 2))));
      return;
    }
    for (let at = 0; at < body.length; at += CHUNK) {
      if (res.destroyed) return;
      const more = res.write(body.subarray(at, at + CHUNK));
      if (!more) await new Promise((resolve) => res.once('drain', resolve));
      if (this.chunkDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.chunkDelayMs));
    }
    res.end();
  }

  private list(req: IncomingMessage, res: ServerResponse, path: string, query: URLSearchParams): void {
    const prefix = query.get('prefix') ?? '';
    const max = Math.min(this.pageSize, Number(query.get('max-keys') ?? 1000));
    const token = query.get('continuation-token');
    const after = token ? Buffer.from(token, 'base64url').toString('utf8') : (query.get('start-after') ?? '');
    const keys = [...this.objects.keys()].filter((k) => k.startsWith(prefix) && k > after).sort();
    const page = keys.slice(0, max);
    const truncated = keys.length > page.length;
    const contents = page
      .map((k) => {
        const o = this.objects.get(k)!;
        return `<Contents><Key>${xml(k)}</Key><LastModified>${o.lastModified.toISOString()}</LastModified><ETag>${xml(o.etag)}</ETag><Size>${o.body.length}</Size><StorageClass>STANDARD</StorageClass></Contents>`;
      })
      .join('');
    const next = truncated ? `<NextContinuationToken>${Buffer.from(page.at(-1)!).toString('base64url')}</NextContinuationToken>` : '';
    const body =
      `<?xml version="1.0" encoding="UTF-8"?>\n<ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">` +
      `<Name>${xml(this.bucket)}</Name><Prefix>${xml(prefix)}</Prefix><KeyCount>${page.length}</KeyCount><MaxKeys>${max}</MaxKeys>` +
      `<IsTruncated>${truncated}</IsTruncated>${contents}${next}</ListBucketResult>`;
    this.log(req, path, query, 200);
    res.writeHead(200, { 'content-type': 'application/xml' });
    res.end(body);
  }

  private log(req: IncomingMessage, path: string, query: URLSearchParams, status: number): void {
    this.requests.push({ method: req.method ?? '', path, query, status });
  }

  private error(req: IncomingMessage, res: ServerResponse, status: number, code: string, message: string, path = '', query = new URLSearchParams()): void {
    this.log(req, path, query, status);
    const body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${xml(message)}</Message><RequestId>fake</RequestId></Error>`;
    res.writeHead(status, { 'content-type': 'application/xml', 'content-length': String(req.method === 'HEAD' ? 0 : Buffer.byteLength(body)) });
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  /** Checks the SigV4 Authorization header; returns the S3 error to answer, or undefined. */
  private checkSignature(req: IncomingMessage, path: string, rawQuery: string): { code: string; message: string } | undefined {
    const header = req.headers.authorization ?? '';
    const m = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/.exec(header);
    if (!m) return { code: 'AccessDenied', message: 'Missing or malformed AWS Signature V4 Authorization header' };
    const [, accessKey, date, region, service, signedHeaders, signature] = m as unknown as string[];
    if (accessKey !== this.accessKey) return { code: 'InvalidAccessKeyId', message: 'The AWS Access Key Id you provided does not exist in our records.' };
    const canonicalHeaders = signedHeaders!
      .split(';')
      .map((h) => `${h}:${String(req.headers[h] ?? '').trim().replace(/\s+/g, ' ')}\n`)
      .join('');
    const canonicalQuery = rawQuery
      .split('&')
      .filter((p) => p !== '')
      .map((p) => {
        const eq = p.indexOf('=');
        const k = decodeURIComponent(eq < 0 ? p : p.slice(0, eq));
        const v = eq < 0 ? '' : decodeURIComponent(p.slice(eq + 1).replace(/\+/g, ' '));
        return [uriEncode(k), uriEncode(v)] as const;
      })
      .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : 1))
      .map(([k, v]) => `${k}=${v}`)
      .join('&');
    const payloadHash = String(req.headers['x-amz-content-sha256'] ?? 'UNSIGNED-PAYLOAD');
    const canonical = [req.method, path, canonicalQuery, canonicalHeaders, signedHeaders, payloadHash].join('\n');
    const scope = `${date}/${region}/${service}/aws4_request`;
    const toSign = ['AWS4-HMAC-SHA256', String(req.headers['x-amz-date'] ?? ''), scope, sha256(canonical)].join('\n');
    let k = hmac(`AWS4${this.secretKey}`, date!);
    for (const part of [region!, service!, 'aws4_request']) k = hmac(k, part);
    const expected = createHmac('sha256', k).update(toSign).digest('hex');
    if (expected !== signature) {
      return { code: 'SignatureDoesNotMatch', message: 'The request signature we calculated does not match the signature you provided. Check your key and signing method.' };
    }
    return undefined;
  }
}

function hmac(key: string | Buffer, data: string): Buffer {
  return createHmac('sha256', key).update(data).digest();
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** RFC 3986 encoding as SigV4 wants it (encodeURIComponent leaves !'()* alone). */
function uriEncode(s: string): string {
  return encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** A key as a path: each segment encoded, the slashes kept. */
export function encodeKey(key: string): string {
  return key.split('/').map(uriEncode).join('/');
}

function xml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
