import type { FastifyRequest } from 'fastify';
import type { ApiKeyRecord, KeyRepository } from '../store/repos/keys.js';
import { hashKey } from '../store/repos/keys.js';
import { ApiError } from '../domain/errors.js';

export const ACCEPTED_KEY_FORMS = 'the apiKey (or api_key) query parameter, an X-API-Key header, or an Authorization: Bearer <key> header';

/**
 * Where a client may put its key; a header wins over the query string. An Authorization header of
 * another scheme (Basic, Token, a bare key) and no key elsewhere is a 401 that says what is accepted.
 */
export function presentedKey(req: FastifyRequest): string | undefined {
  const h = req.headers;
  const x = h['x-api-key'];
  if (typeof x === 'string' && x.length > 0) return x;
  const auth = h.authorization;
  let unusable: string | undefined;
  if (typeof auth === 'string') {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(auth);
    if (m) return m[1];
    if (auth.trim() !== '') unusable = /^(\S+)\s+\S/.exec(auth.trim())?.[1] ?? 'without a scheme';
  }
  const q = req.query as Record<string, unknown> | undefined;
  for (const name of ['api_key', 'apiKey']) {
    const v = q?.[name];
    if (typeof v === 'string' && v.length > 0) return v;
    if (Array.isArray(v) && typeof v[0] === 'string') return v[0];
  }
  if (unusable !== undefined) {
    // the scheme is named only if it is a plain word: the rest of the header may be a secret
    const scheme = /^[A-Za-z][\w-]{0,19}$/.test(unusable) ? `Authorization: ${unusable}` : 'This Authorization header';
    throw new ApiError('MISSING_KEY', `${scheme} is not accepted; send the API key as ${ACCEPTED_KEY_FORMS}`);
  }
  return undefined;
}

/**
 * Resolves keys to their records with a short-lived cache keyed by the key's hash, so the hot path
 * does not hit the store on every request. Revocations in this process apply at once; in other
 * processes (other workers, other hosts, the CLI) within `ttlMs`: at 500 ms a key costs each
 * process two store lookups a second, and a revoked key is refused everywhere in under a second,
 * with or without Redis. One lookup per key is in flight at a time, and the requests that come
 * while it runs wait for it: before, each of them asked the store too (about 190 lookups a second
 * on PostgreSQL under a 50-connection load, instead of 2). A record in use is read again once it
 * is three quarters of its TTL old, so it is renewed before it expires; no record is used past
 * the TTL from the start of the lookup that read it.
 */
export const KEY_CACHE_TTL_MS = 500;

export class KeyAuthenticator {
  private readonly cache = new Map<string, { record: ApiKeyRecord | undefined; until: number }>();
  /** Store lookups under way, by key hash. */
  private readonly asking = new Map<string, Promise<ApiKeyRecord | undefined>>();
  /** Moves on forget(): a lookup begun before then does not fill the cache with what it read. */
  private generation = 0;
  /**
   * The key each connection presented last and its hash: clients send the same key on every
   * request of a keep-alive connection, and its SHA-256 took 3-4 µs of a cached answer's 50-90.
   * Held only as long as the connection (a WeakMap entry goes with its socket), as the request's
   * own headers are; compared with the key the same connection presents, so it tells a client
   * nothing it did not send.
   */
  private readonly byConnection = new WeakMap<object, { key: string; hash: string }>();

  constructor(
    private readonly keys: KeyRepository,
    private readonly ttlMs = KEY_CACHE_TTL_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The key's record; a promise only when the store has to be asked (not cached, or expired).
   * `connection`: the socket the key came on, when there is one.
   */
  authenticate(key: string | undefined, connection?: object): ApiKeyRecord | Promise<ApiKeyRecord> {
    if (!key) throw new ApiError('MISSING_KEY', 'API Key was not provided');
    const hash = this.hashOf(key, connection);
    const t = this.now();
    const hit = this.cache.get(hash);
    if (hit !== undefined && hit.until >= t) {
      // in the last quarter of its life, the record is read again while it still answers: the
      // requests of a busy key no longer wait for (or, on the cached path, give up on) a lookup at
      // every expiry; a failure is left to the lookup at expiry, which reports it
      if (hit.until - t <= this.ttlMs / 4 && !this.asking.has(hash)) this.lookUp(key, hash, t).catch(() => {});
      return this.check(hit.record, t);
    }
    return this.lookUp(key, hash, t).then((record) => this.check(record, t));
  }

  /** The store's record for `key` (hash `hash`), asked once however many requests wait for it. */
  private lookUp(key: string, hash: string, t: number): Promise<ApiKeyRecord | undefined> {
    const running = this.asking.get(hash);
    if (running !== undefined) return running;
    const generation = this.generation;
    const asked = (key.length <= 256 ? this.keys.findByKey(key) : Promise.resolve(undefined)).then(
      (record) => {
        if (generation !== this.generation) return record;
        this.asking.delete(hash);
        if (this.cache.size > 10_000) this.cache.clear();
        this.cache.set(hash, { record, until: t + this.ttlMs });
        return record;
      },
      (err: unknown) => {
        if (generation === this.generation) this.asking.delete(hash);
        throw err;
      },
    );
    this.asking.set(hash, asked);
    return asked;
  }

  private hashOf(key: string, connection: object | undefined): string {
    if (!connection) return hashKey(key); // no socket (a destroyed request), nothing to remember it by
    const last = this.byConnection.get(connection);
    if (last !== undefined && last.key === key) return last.hash;
    const hash = hashKey(key);
    this.byConnection.set(connection, { key, hash });
    return hash;
  }

  private check(r: ApiKeyRecord | undefined, t: number): ApiKeyRecord {
    if (!r) throw new ApiError('UNKNOWN_KEY', 'Unknown API Key');
    if (r.revoked_utc) throw new ApiError('REVOKED_KEY', 'API Key has been revoked');
    if (r.expires_utc && Date.parse(r.expires_utc) <= t) throw new ApiError('EXPIRED_KEY', 'API Key has expired');
    return r;
  }

  forget(): void {
    this.generation++;
    this.cache.clear();
    this.asking.clear();
  }
}

/** Replaces key values in a URL so logs never hold one. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const hash = url.indexOf('#', q);
  const query = url.slice(q + 1, hash < 0 ? undefined : hash);
  // Names are compared decoded, as the query parser reads them, so `api%5Fkey=` is caught too.
  const parts = query.split('&').map((part) => {
    const eq = part.indexOf('=');
    const name = eq < 0 ? part : part.slice(0, eq);
    return KEY_PARAM_NAMES.has(decodeName(name).toLowerCase()) ? `${name}=[REDACTED]` : part;
  });
  return `${url.slice(0, q + 1)}${parts.join('&')}${hash < 0 ? '' : url.slice(hash)}`;
}

const KEY_PARAM_NAMES = new Set(['api_key', 'apikey']);

function decodeName(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name; // a malformed escape: the parser would not read it as a key name either
  }
}
