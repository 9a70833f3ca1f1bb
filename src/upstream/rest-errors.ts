// What can go wrong with a call to upstream's REST API. Every message names the URL with any key
// redacted (the client sends its key in a header, but a URL given by a user may hold one too).

export type UpstreamErrorKind =
  /** 401: the upstream key is wrong or revoked; nothing else will work either. */
  | 'unauthorized'
  /** 403: the key's plan does not include this data (or it is not published yet). */
  | 'forbidden'
  /** 429 after the retries allowed (read-through allows none). */
  | 'rate_limited'
  /** 5xx, a refused connection or the per-request deadline, after the retries allowed. */
  | 'unavailable'
  /** 404 for a single record (a ticker overview): upstream has no such thing. */
  | 'not_found'
  /** Any other 4xx: upstream refused the request as made. */
  | 'refused'
  /** A 2xx whose body is not what the API promises (HTML, truncated JSON, a field of the wrong type). */
  | 'bad_answer';

export class UpstreamError extends Error {
  override readonly name = 'UpstreamError';
  constructor(
    readonly kind: UpstreamErrorKind,
    /** The URL of the call, key redacted. */
    readonly url: string,
    readonly reason: string,
    /** Seconds upstream asked to wait (429), when it said. */
    readonly retryAfterS?: number,
    /** The HTTP status, when there was an answer. */
    readonly httpStatus?: number,
  ) {
    super(`${url}: ${reason}`);
  }
}

/**
 * The URL with the values of key-like query parameters (apiKey, api_key, key, token) replaced by
 * `REDACTED`, and any occurrence of the given secrets as well.
 */
export function redactUpstreamUrl(url: string, secrets: readonly string[] = []): string {
  let out = url.replace(/([?&](?:apikey|api_key|key|token)=)[^&#]*/gi, '$1REDACTED');
  for (const s of secrets) if (s.length > 0) out = out.split(s).join('REDACTED');
  return out;
}
