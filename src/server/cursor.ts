import { createHmac, timingSafeEqual } from 'node:crypto';
import { ApiError } from '../domain/errors.js';

/**
 * Opaque, tamper-evident pagination cursors: base64url(JSON payload) + '.' + HMAC. The payload
 * carries the whole query and the keyset position, and names the route family it belongs to, so an
 * edited cursor or one taken from another endpoint is refused with 400 instead of leaking rows.
 */
export class CursorCodec {
  constructor(private readonly secret: string) {}

  private sign(route: string, body: string): string {
    return createHmac('sha256', this.secret).update(route).update('\0').update(body).digest('base64url').slice(0, 22);
  }

  encode(route: string, payload: unknown): string {
    const body = Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');
    return `${body}.${this.sign(route, body)}`;
  }

  decode<T>(route: string, token: string): T {
    const invalid = new ApiError('BAD_CURSOR', 'cursor is invalid: use the next_url of a previous response unchanged');
    const dot = token.indexOf('.');
    if (dot <= 0 || token.length > 8192) throw invalid;
    const body = token.slice(0, dot);
    const mac = Buffer.from(token.slice(dot + 1));
    const expected = Buffer.from(this.sign(route, body));
    if (mac.length !== expected.length || !timingSafeEqual(mac, expected)) throw invalid;
    try {
      return JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as T;
    } catch {
      throw invalid;
    }
  }
}
