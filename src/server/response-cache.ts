import { BodyPieces } from './body-pieces.js';
import type { GzipPieces } from './gzip-splice.js';

// Serialized answers of routes whose body is a pure function of the request and the stored data
// (the ticker overview, pages of the ticker list): kept per request key and store data version, so
// a repeated request skips the store reads and the serializer. The request id, which differs on
// every response, is spliced in; everything else (headers, auth, plans, rate limits) runs as for
// any request. Bounded by entries and by bytes; what goes first is chosen as the clock algorithm
// does: entries are kept in the order they were put in, and the oldest goes unless it was used
// since it was put at the newest end, in which case it is put there again and the next is looked
// at. A hit only marks its entry: moving it (a Map delete and set) on every hit made V8 rebuild
// the Map's table again and again, in the old generation where the table lives, about 150 bytes
// per cached answer (a full garbage collection every 2-3 s of repeated overviews).

declare module 'fastify' {
  interface FastifyRequest {
    /** The cached body this request is answered with (the ETag hook keeps its ETag there). */
    cachedBody?: CachedBody;
  }
}

export interface CachedBody {
  /**
   * The serialized body (UTF-8) up to the request id's value, and after it, as the buffers it was
   * written in: a body sent as pieces (slices of data kept in memory) is kept without a copy.
   */
  head: readonly Buffer[];
  tail: readonly Buffer[];
  /** Bytes of head and tail. */
  bytes: number;
  /**
   * The body as first sent, when it was one buffer (head and tail are slices of it), and where
   * its request id starts: a small answer is that buffer copied with the new id written over the
   * old one (one copy rather than one per piece and the id between them).
   */
  whole?: { bytes: Buffer; idAt: number };
  /** ETag of the body (set by the ETag hook on first use). */
  etag?: string;
  /** The body gzipped around the request id (compression.ts, on first use). */
  gzip?: GzipPieces;
  /** The gzip pieces of a large body being made off the event loop. */
  gzipping?: Promise<GzipPieces>;
}

interface Entry extends CachedBody {
  version: string;
  /** Used since it was put at the newest end (then it is put there again rather than dropped). */
  used: boolean;
}

/** How far into a body the request id is looked for first (the wrapped envelope's place for it). */
const HEAD_BYTES = 256;

/** Default byte budget of a cache: 32 MiB, about a hundred 1,000-ticker pages. */
export const DEFAULT_CACHE_BYTES = 32 * 2 ** 20;

export class ResponseCache {
  /** Oldest first: a Map iterates in insertion order. */
  private readonly entries = new Map<string, Entry>();
  private heldBytes = 0;

  /**
   * `maxBytes` bounds the bodies held; a body over an eighth of it is not kept, so that one large
   * answer cannot empty the cache of the many small ones.
   */
  constructor(
    readonly maxEntries = 10_000,
    readonly maxBytes = DEFAULT_CACHE_BYTES,
  ) {}

  /** The body cached for `key` when it was made at data version `version`. */
  get(key: string, version: string): CachedBody | undefined {
    const e = this.entries.get(key);
    if (e === undefined) return undefined;
    if (e.version !== version) {
      this.delete(key);
      return undefined;
    }
    e.used = true;
    return e;
  }

  /**
   * Keeps `body` (serialized with request id `requestId`; pieces are kept as they are, not copied)
   * for `key`; returns the entry, or undefined when the body has no `"request_id"` field of that
   * value.
   */
  set(key: string, version: string, body: string | Buffer | readonly Buffer[], requestId: string): CachedBody | undefined {
    const pieces = typeof body === 'string' ? [Buffer.from(body)] : Buffer.isBuffer(body) ? [body] : body;
    if (pieces.length === 0) return undefined;
    let bytes = 0;
    for (const p of pieces) bytes += p.length;
    if (bytes > this.maxBytes / 8) return undefined;
    const found = findId(pieces, requestId);
    if (found === undefined) return undefined;
    const [i, idAt] = found;
    const piece = pieces[i]!;
    const head = [...pieces.slice(0, i), piece.subarray(0, idAt)];
    const tail = [piece.subarray(idAt + requestId.length), ...pieces.slice(i + 1)];
    const entry: Entry = { version, head, tail, bytes: bytes - requestId.length, whole: pieces.length === 1 ? { bytes: piece, idAt } : undefined, used: false };
    this.delete(key);
    this.entries.set(key, entry);
    this.heldBytes += entry.bytes;
    // Each turn drops the oldest entry or puts it at the newest end unused: one used since it got
    // there, or the new entry itself (which is kept over entries used before it came). So within
    // one round of the entries one is dropped.
    while ((this.entries.size > this.maxEntries || this.heldBytes > this.maxBytes) && this.entries.size > 1) {
      const [oldestKey, oldest] = this.entries.entries().next().value!;
      this.entries.delete(oldestKey);
      if (oldest.used || oldestKey === key) {
        oldest.used = false;
        this.entries.set(oldestKey, oldest);
      } else this.heldBytes -= oldest.bytes;
    }
    return entry;
  }

  get size(): number {
    return this.entries.size;
  }

  /** Bytes of the bodies held. */
  get bytes(): number {
    return this.heldBytes;
  }

  clear(): void {
    this.entries.clear();
    this.heldBytes = 0;
  }

  private delete(key: string): void {
    const e = this.entries.get(key);
    if (e === undefined) return;
    this.entries.delete(key);
    this.heldBytes -= sizeOf(e);
  }
}

/**
 * Where the request id's value starts: [piece, byte offset]. Looked for near the start, where the
 * {ok, data} envelope writes it before the results, then from the end, where the native one
 * writes it after them: a search through the whole body read every byte of a 1,000-ticker page
 * (70 µs), and of 0.9 MiB of minute bars (340 µs). The envelope's text is one piece (spliced items
 * are the others), so the id is never split between two. The id is 128 random bits drawn for this
 * response, so no stored value holds it (and a JSON string value cannot hold the quotes).
 */
function findId(pieces: readonly Buffer[], requestId: string): [number, number] | undefined {
  const needle = Buffer.from(`"request_id":"${requestId}"`, 'latin1'); // as bytes: a text needle is encoded on every call
  const valueAt = (at: number) => at + needle.length - requestId.length - 1; // byte offsets: the needle is ASCII
  const first = pieces[0]!;
  let at = first.subarray(0, HEAD_BYTES + needle.length).indexOf(needle);
  if (at >= 0) return [0, valueAt(at)];
  const last = pieces.length - 1;
  at = pieces[last]!.lastIndexOf(needle);
  if (at >= 0) return [last, valueAt(at)];
  for (let i = 0; i < last; i++) {
    at = pieces[i]!.indexOf(needle);
    if (at >= 0) return [i, valueAt(at)];
  }
  return undefined;
}

function sizeOf(e: CachedBody): number {
  return e.bytes;
}

/**
 * Cached bodies from this size go out as their pieces (CachedBodyStream) rather than one copy:
 * copying a 2.3 MiB page into a new buffer took a quarter of the CPU of answering it from the
 * cache, and the copies, freed only by the garbage collector, held tens of MiB meanwhile. A stream
 * costs more than a small copy: measured on a 2-core VM, a 27 KiB page took 224-235 µs of CPU as
 * pieces against 157-184 µs copied, a 272 KiB page 246-312 µs as pieces against 300-328 µs copied.
 */
export const PIECES_FROM_BYTES = 64 * 1024;

/**
 * A cached body as it is sent: the cached bytes before the request id, the id, and the bytes
 * after it, written to the socket in turn without being copied into one buffer.
 */
export class CachedBodyStream extends BodyPieces {
  constructor(entry: CachedBody, requestId: string) {
    super([...entry.head, Buffer.from(requestId, 'latin1'), ...entry.tail]);
  }
}

/** The body of `entry` for a response with request id `requestId`: one buffer when small, else its pieces. */
export function cachedPayload(entry: CachedBody, requestId: string): Buffer | CachedBodyStream {
  return sizeOf(entry) + requestId.length < PIECES_FROM_BYTES ? cachedBody(entry, requestId) : new CachedBodyStream(entry, requestId);
}

/**
 * The body of `entry` for a response with request id `requestId` (ASCII: Fastify's ids are hex),
 * as bytes: the socket takes them as they are, where a string would be encoded on every send.
 */
export function cachedBody(entry: CachedBody, requestId: string): Buffer {
  const whole = entry.whole;
  if (whole !== undefined && whole.bytes.length === entry.bytes + requestId.length) {
    const out = Buffer.allocUnsafe(whole.bytes.length);
    out.set(whole.bytes);
    putId(out, whole.idAt, requestId);
    return out;
  }
  const out = Buffer.allocUnsafe(entry.bytes + requestId.length);
  let at = 0;
  for (const p of entry.head) at += p.copy(out, at);
  at = putId(out, at, requestId);
  for (const p of entry.tail) at += p.copy(out, at);
  return out;
}

/**
 * Writes `id` into `out` at `at`, byte by byte (it is a few dozen ASCII characters, and a latin1
 * write is a call into C++); returns the offset after it.
 */
function putId(out: Buffer, at: number, id: string): number {
  for (let i = 0; i < id.length; i++, at++) out[at] = id.charCodeAt(i);
  return at;
}

/** Pieces as one buffer (the piece itself when there is one). */
export function joinedPieces(pieces: readonly Buffer[]): Buffer {
  return pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces);
}
