// Serialized answers of routes whose body is a pure function of the request and the stored data
// (the ticker overview): kept per request key and store data version, so a repeated request skips
// the store reads and the serializer. The request id, which differs on every response, is spliced
// in; everything else (headers, auth, plans, rate limits) runs as for any request.

declare module 'fastify' {
  interface FastifyRequest {
    /** The cached body this request is answered with (the ETag hook keeps its ETag there). */
    cachedBody?: CachedBody;
  }
}

export interface CachedBody {
  /** The serialized body (UTF-8) up to the request id's value, and after it. */
  head: Buffer;
  tail: Buffer;
  /** ETag of the body (set by the ETag hook on first use). */
  etag?: string;
}

interface Entry extends CachedBody {
  version: string;
}

export class ResponseCache {
  private readonly entries = new Map<string, Entry>();

  constructor(readonly maxEntries = 10_000) {}

  /** The body cached for `key` when it was made at data version `version`. */
  get(key: string, version: string): CachedBody | undefined {
    const e = this.entries.get(key);
    if (e === undefined) return undefined;
    if (e.version === version) return e;
    this.entries.delete(key);
    return undefined;
  }

  /**
   * Keeps `body` (serialized with request id `requestId`) for `key`; returns the entry, or
   * undefined when the body does not hold the request id exactly once as a JSON string value.
   */
  set(key: string, version: string, body: string | Buffer, requestId: string): CachedBody | undefined {
    const bytes = typeof body === 'string' ? Buffer.from(body) : body;
    const needle = `"request_id":"${requestId}"`;
    const at = bytes.indexOf(needle);
    if (at < 0 || bytes.indexOf(needle, at + 1) >= 0) return undefined;
    const idAt = at + needle.length - requestId.length - 1; // byte offsets: the needle is ASCII
    // Oldest first out: a Map iterates in insertion order.
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    const entry: Entry = { version, head: bytes.subarray(0, idAt), tail: bytes.subarray(idAt + requestId.length) };
    this.entries.set(key, entry);
    return entry;
  }

  get size(): number {
    return this.entries.size;
  }

  clear(): void {
    this.entries.clear();
  }
}

/**
 * The body of `entry` for a response with request id `requestId` (ASCII: Fastify's ids are hex),
 * as bytes: the socket takes them as they are, where a string would be encoded on every send.
 */
export function cachedBody(entry: CachedBody, requestId: string): Buffer {
  const { head, tail } = entry;
  const out = Buffer.allocUnsafe(head.length + requestId.length + tail.length);
  head.copy(out, 0);
  const at = head.length + out.write(requestId, head.length, 'latin1');
  tail.copy(out, at);
  return out;
}
