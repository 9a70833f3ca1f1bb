import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../domain/errors.js';

// The operator's admin token (`--admin-token` / TICKERBASE_ADMIN_TOKEN) guards /admin/...: the
// key API and publishing to the feed. API keys are never accepted in its place.

export const MIN_ADMIN_TOKEN_LENGTH = 24;

const digest = (s: string): Buffer => createHash('sha256').update(s, 'utf8').digest();

/** The token sent as `X-Admin-Token` or `Authorization: Bearer <token>`. */
function presentedToken(req: FastifyRequest): string | undefined {
  const x = req.headers['x-admin-token'];
  if (typeof x === 'string' && x) return x;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  return m?.[1];
}

/**
 * Refuses a request without the configured token (401). The comparison takes the same time
 * whatever the presented token (its hash is compared, and hashes have equal length).
 */
export function checkAdminToken(req: FastifyRequest, expected: string): void {
  const presented = presentedToken(req);
  if (!presented) throw new ApiError('MISSING_KEY', 'Admin token was not provided (Authorization: Bearer <token> or X-Admin-Token)');
  if (!timingSafeEqual(digest(presented), digest(expected))) throw new ApiError('UNKNOWN_KEY', 'Invalid admin token');
}
