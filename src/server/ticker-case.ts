import type { FastifyRequest } from 'fastify';
import { BodyPieces } from './body-pieces.js';

// Upstream's tickers are upper case, and upstream answers a time-series request for a lower-case
// ticker (`/v2/aggs/ticker/aapl/...`, `/v3/trades/aapl`) with an empty page rather than a 404. The
// same empty page here carries a `notice` saying so, so the mistake is not taken for missing data.

/** Bodies larger than this hold rows: an empty page is a few hundred bytes. */
const EMPTY_BODY_MAX = 4096;

function holdsNoRows(body: string, wrapped: boolean): boolean {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return false;
  }
  const inner = (wrapped ? (parsed as { data?: unknown } | null)?.data : parsed) as Record<string, unknown> | null | undefined;
  if (!inner || typeof inner !== 'object') return false;
  const rows = inner.results ?? inner.ticks;
  return rows === undefined || (Array.isArray(rows) && rows.length === 0);
}

/**
 * The notice for a 200 answer to a path ticker with lower-case letters that holds no rows, or
 * undefined. `body` is the serialized answer as the send step holds it.
 */
export function tickerCaseNotice(req: FastifyRequest, body: unknown): string | undefined {
  const ticker = (req.params as { ticker?: unknown } | undefined)?.ticker;
  if (typeof ticker !== 'string' || !/[a-z]/.test(ticker)) return undefined;
  const size = body instanceof BodyPieces ? body.byteLength : typeof body === 'string' || Buffer.isBuffer(body) ? body.length : Infinity;
  if (size > EMPTY_BODY_MAX) return undefined;
  const text = typeof body === 'string' ? body : (body instanceof BodyPieces ? body.bytes() : (body as Buffer)).toString('utf8');
  if (!holdsNoRows(text, req.envelopeMode === 'wrapped')) return undefined;
  return `No results for ${ticker}: tickers are upper case (${ticker.toUpperCase()}).`;
}
