import { randomFillSync } from 'node:crypto';

// Request ids: 32 hex digits (as upstream's) from 16 random bytes, cut from a pool refilled 256
// ids at a time (one crypto call per 256 requests instead of a UUID and a regex replace each).
const ID_BYTES = 16;
const idPool = Buffer.alloc(ID_BYTES * 256);
let idAt = idPool.length;

/** A new request id (Fastify's genReqId, and the cached-answer path's). */
export function requestId(): string {
  if (idAt === idPool.length) {
    randomFillSync(idPool);
    idAt = 0;
  }
  const id = idPool.toString('hex', idAt, idAt + ID_BYTES);
  idAt += ID_BYTES;
  return id;
}
