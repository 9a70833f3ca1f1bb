import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants, deflate, deflateSync, gzip, gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { gzipPieces, gzipPiecesOffLoop, splicedGzip } from './gzip-splice.js';
import { BodyPieces } from './body-pieces.js';
import { joinedPieces } from './response-cache.js';

// Compression of the API's answers (strings or bytes), run inside the app's one onSend hook.
// The routes built by getRoute opt out of @fastify/compress, which adds an onRequest and an onSend
// hook to every route and runs its checks (content type lookup, negotiation) before the size
// threshold: on a small cached answer that was a tenth of the request's CPU. Here the size and the
// Accept-Encoding header are looked at first. The plugin still serves every other route (the docs
// page's files are streams). Same encodings, preference, threshold and brotli settings as it.

export type Encoding = 'br' | 'gzip' | 'deflate';

/** Server preference on equal q-values (the plugin's order). */
const PREFERENCE: readonly Encoding[] = ['br', 'gzip', 'deflate'];

/** For cached answers, which are sent gzipped without compressing them again. */
export const CACHED_PREFERENCE: readonly Encoding[] = ['gzip', 'br', 'deflate'];

/** Brotli at quality 4 in text mode: the plugin's default; brotli's own default (11) is far slower. */
const BROTLI = { params: { [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT, [constants.BROTLI_PARAM_QUALITY]: 4 } };

/**
 * The encoding to answer with for an Accept-Encoding header: the highest q-value among br, gzip
 * (`x-gzip` too) and deflate, `*` standing for any not named; ties go by PREFERENCE. undefined:
 * none acceptable (no header, `identity` only, or q=0 for all).
 */
export function negotiateEncoding(header: string | undefined, preference: readonly Encoding[] = PREFERENCE): Encoding | undefined {
  if (!header) return undefined;
  const q = new Map<string, number>();
  for (const part of header.toLowerCase().split(',')) {
    const [token, ...params] = part.split(';');
    let name = token!.trim();
    if (name === '') continue;
    if (name === 'x-gzip') name = 'gzip';
    let value = 1;
    for (const p of params) {
      const m = /^\s*q\s*=\s*([0-9.]+)\s*$/.exec(p);
      if (m) value = Number(m[1]);
    }
    if (Number.isFinite(value) && !q.has(name)) q.set(name, value);
  }
  let best: Encoding | undefined;
  let bestQ = 0;
  for (const enc of preference) {
    const v = q.get(enc) ?? q.get('*') ?? 0;
    if (v > bestQ) {
      best = enc;
      bestQ = v;
    }
  }
  return best;
}

function compressSync(encoding: Encoding, body: Buffer | string): Buffer {
  if (encoding === 'br') return brotliCompressSync(body, BROTLI);
  return encoding === 'gzip' ? gzipSync(body) : deflateSync(body);
}

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);
const deflateAsync = promisify(deflate);

/** compressSync on libuv's thread pool. */
function compressOffLoop(encoding: Encoding, body: Buffer | string): Promise<Buffer> {
  if (encoding === 'br') return brotliAsync(body, BROTLI);
  return encoding === 'gzip' ? gzipAsync(body) : deflateAsync(body);
}

/**
 * Bodies from this size are compressed on the thread pool: a 2.3 MiB page of trades took 10 ms
 * (gzip) to 13 ms (brotli) of the event loop, which every other request waited out, and the pool
 * runs on another core where there is one. Smaller ones cost less than the hand-over.
 */
export const OFF_LOOP_BYTES = 256 * 1024;

/** Types worth compressing (JSON, text, XML, SVG); images and other binary types are not. */
const COMPRESSIBLE = /^\s*(?:text\/|application\/(?:json|javascript|xml)\b|application\/[\w.+-]+\+(?:json|xml)\b|image\/svg\+xml\b)/i;

/** Adds accept-encoding to Vary unless it is there (in any case). */
function varyOnEncoding(reply: FastifyReply): void {
  const vary = reply.getHeader('vary');
  if (vary === undefined) reply.header('vary', 'accept-encoding');
  else if (!/(^|,)\s*accept-encoding\s*(,|$)/i.test(String(vary))) reply.header('vary', `${String(vary)}, accept-encoding`);
}

/**
 * The payload to send for an answer: compressed when it is at least `threshold` bytes of a
 * compressible type (none set counts as JSON) and the client accepts br, gzip or deflate (then
 * Content-Encoding, Content-Length and Vary are set), else as it is. Never for partial content,
 * no-body statuses, an already encoded body, or a client that sent `x-no-compression`. A body of
 * OFF_LOOP_BYTES or more that is not a cached answer is compressed off the event loop: the
 * result is then a promise of the payload, its headers set when it resolves.
 */
export function compressAnswer(req: FastifyRequest, reply: FastifyReply, payload: unknown, threshold: number): unknown {
  const isString = typeof payload === 'string';
  const pieces = payload instanceof BodyPieces ? payload : undefined;
  if (!isString && !Buffer.isBuffer(payload) && pieces === undefined) return payload;
  // cheap tests first: most answers are small or go to clients that do not ask for compression
  const size = isString ? Buffer.byteLength(payload) : pieces !== undefined ? pieces.byteLength : (payload as Buffer).length;
  if (size < threshold) return payload;
  // a cached answer goes out gzipped from pieces compressed once (gzip-splice.ts) where the client
  // accepts gzip as well as anything else
  const cached = req.cachedBody;
  const splice = cached !== undefined && !isString && size === cached.bytes + req.id.length;
  const encoding = negotiateEncoding(req.headers['accept-encoding'], splice ? CACHED_PREFERENCE : PREFERENCE);
  if (encoding === undefined) return payload;
  const status = reply.statusCode;
  if (status === 204 || status === 206 || status === 304 || req.headers['x-no-compression'] !== undefined) return payload;
  const type = reply.getHeader('content-type');
  if (type !== undefined && !COMPRESSIBLE.test(String(type))) return payload;
  const current = reply.getHeader('content-encoding');
  if (current !== undefined && current !== 'identity') return payload;
  // a strong ETag a route set on its identity bytes cannot stand for these bytes too
  const etag = reply.getHeader('etag');
  if (typeof etag === 'string' && !etag.startsWith('W/')) reply.header('etag', `W/${etag}`);
  varyOnEncoding(reply);
  reply.header('content-encoding', encoding);
  const sent = (out: Buffer) => {
    reply.header('content-length', out.length);
    return out;
  };
  if (splice && encoding === 'gzip') {
    const id = Buffer.from(req.id, 'latin1');
    if (cached.gzip !== undefined || size < OFF_LOOP_BYTES) return sent(splicedGzip((cached.gzip ??= gzipPieces(joinedPieces(cached.head), joinedPieces(cached.tail))), id));
    // requests for it meanwhile wait for the same pieces
    cached.gzipping ??= gzipPiecesOffLoop(joinedPieces(cached.head), joinedPieces(cached.tail)).then(
      (p) => (cached.gzip = p),
      (err: unknown) => {
        cached.gzipping = undefined; // the next request tries again
        throw err;
      },
    );
    return cached.gzipping.then(
      (p) => sent(splicedGzip(p, id)),
      () => {
        reply.removeHeader('content-encoding'); // sent as it is
        return payload;
      },
    );
  }
  // the other encodings compress the whole body
  const body = pieces !== undefined ? pieces.bytes() : (payload as Buffer | string);
  if (size >= OFF_LOOP_BYTES) {
    return compressOffLoop(encoding, body).then(sent, () => {
      reply.removeHeader('content-encoding'); // sent as it is
      return body;
    });
  }
  return sent(compressSync(encoding, body));
}
