import { randomFillSync } from 'node:crypto';

// Request ids: 32 hex digits (as upstream's) from 16 random bytes. 256 ids are drawn at a time
// and turned into hex text at once; each id is a slice of that text, so a request costs neither
// a crypto call nor its own hex encoding (that encoding alone was 0.2-0.3 µs of a cached
// answer's 30).
const ID_BYTES = 16;
const ID_CHARS = ID_BYTES * 2;
const POOL_IDS = 256;
const random = Buffer.alloc(ID_BYTES * POOL_IDS);
let hex = '';
let at = 0;

/** A new request id (Fastify's genReqId, and the cached-answer path's). */
export function requestId(): string {
  if (at === hex.length) {
    randomFillSync(random);
    hex = random.toString('hex');
    at = 0;
  }
  const id = hex.slice(at, at + ID_CHARS);
  at += ID_CHARS;
  return id;
}
