import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { FastifyRequest } from 'fastify';
import type { ServerConfig } from './context.js';

// The absolute base of links the server writes into bodies (next_url, branding URLs). A client's
// Host header is not trusted for it: anyone can send any Host, and a cache in front would hand
// the forged links to everyone. The base is the configured public URL; else, behind a proxy the
// operator vouches for (trustProxy), the proxy's X-Forwarded-Proto/-Host; else the address and
// port this connection reached, which belong to the server itself.

/** host, IPv4 or [IPv6], optionally :port: what a Host (or X-Forwarded-Host) header may hold. */
const HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9_-]{0,62})(?:\.[A-Za-z0-9_-]{1,63})*\.?|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?$/;

/** True for a well-formed Host header value (an absent header is checked by Node: HTTP/1.1 needs one). */
export function isValidHost(value: string): boolean {
  return value.length <= 260 && HOST.test(value);
}

function firstValue(header: string | string[] | undefined): string | undefined {
  const v = Array.isArray(header) ? header[0] : header;
  return v?.split(',')[0]?.trim() || undefined;
}

type Headers = IncomingHttpHeaders;

/** The proxy's view of the request's origin, when both headers are there and well formed. */
function forwardedBase(headers: Headers): string | undefined {
  const proto = firstValue(headers['x-forwarded-proto'])?.toLowerCase();
  const host = firstValue(headers['x-forwarded-host']);
  if ((proto !== 'http' && proto !== 'https') || host === undefined || !isValidHost(host)) return undefined;
  return `${proto}://${host}`;
}

/** listeningBase per connection: its addresses do not change, and keep-alive sends many requests. */
const socketBases = new WeakMap<object, string>();

/** The address and port the connection reached (an injected request has none: localhost). */
function listeningBase(socket: (TLSSocket & { encrypted?: boolean }) | undefined): string {
  if (socket === undefined) return 'http://localhost';
  let base = socketBases.get(socket);
  if (base !== undefined) return base;
  const addr = socket.localAddress;
  const port = socket.localPort;
  const scheme = socket.encrypted ? 'https' : 'http';
  if (!addr || !port) return `${scheme}://localhost`; // not connected (yet): not kept
  const host = addr.startsWith('::ffff:') ? addr.slice(7) : addr.includes(':') ? `[${addr.replace(/%.*$/, '')}]` : addr;
  base = `${scheme}://${host}:${port}`;
  socketBases.set(socket, base);
  return base;
}

/** The absolute base URL (no trailing slash) for links in this request's answer. */
export function publicBase(config: Pick<ServerConfig, 'publicUrl' | 'trustProxy'>, req: FastifyRequest): string {
  return rawPublicBase(config, req.raw);
}

/**
 * True when the base of links may differ between requests on one connection: behind a trusted
 * proxy without a public URL it comes from each request's forwarded headers.
 */
export function basePerRequest(config: Pick<ServerConfig, 'publicUrl' | 'trustProxy'>): boolean {
  return !config.publicUrl && Boolean(config.trustProxy);
}

/** publicBase of a request as Node hands it over (before Fastify sees it). */
export function rawPublicBase(config: Pick<ServerConfig, 'publicUrl' | 'trustProxy'>, raw: IncomingMessage): string {
  if (config.publicUrl) return config.publicUrl;
  if (basePerRequest(config)) {
    const fwd = forwardedBase(raw.headers);
    if (fwd !== undefined) return fwd;
  }
  return listeningBase(raw.socket as TLSSocket | undefined);
}
