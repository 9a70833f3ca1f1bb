import { LogController, type FastifyServerOptions } from 'fastify';
import { redactUrl } from './auth.js';

interface RawReq {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  id?: string;
  apiKey?: { id: string };
}

/**
 * pino options for the server: JSON lines, keys never logged (URLs redacted, key headers
 * censored), pretty output when stdout is a terminal.
 */
export function loggerOptions(level = process.env.LOG_LEVEL ?? 'info'): FastifyServerOptions['logger'] {
  return {
    level,
    redact: { paths: ['req.headers.authorization', 'req.headers["x-api-key"]', 'headers.authorization', 'headers["x-api-key"]'], censor: '[REDACTED]' },
    serializers: {
      req(req: RawReq) {
        return { method: req.method, url: redactUrl(req.url ?? ''), host: req.host, remote: req.ip, key_id: req.apiKey?.id };
      },
    },
    ...(process.stdout.isTTY ? { transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' } } } : {}),
  };
}

/** Fields of the one log line written per request (Fastify's own request logging is turned off). */
export interface RequestLogLine {
  key_id?: string;
  method: string;
  route: string;
  url: string;
  status: number;
  duration_ms: number;
}

/**
 * Writes the request's log line: request id (pino's reqId binding), key id (never the key),
 * route template, redacted URL, status and duration. 5xx are errors, 429 and other 4xx are info.
 */
export function logRequest(
  req: {
    log: { info: (o: object, m: string) => void; error: (o: object, m: string) => void; isLevelEnabled?: (level: string) => boolean };
    method: string;
    url: string;
    routeOptions: { url?: string };
    apiKey?: { id: string };
  },
  reply: { statusCode: number; elapsedTime: number },
): void {
  // Below the logger's level (pino tells): no line to build.
  const enabled = req.log.isLevelEnabled;
  if (enabled !== undefined && !enabled.call(req.log, reply.statusCode >= 500 ? 'error' : 'info')) return;
  const line: RequestLogLine = {
    key_id: req.apiKey?.id,
    method: req.method,
    route: req.routeOptions.url ?? '(no route)',
    url: redactUrl(req.url),
    status: reply.statusCode,
    duration_ms: Math.round(reply.elapsedTime * 100) / 100,
  };
  if (reply.statusCode >= 500) req.log.error(line, 'request completed');
  else req.log.info(line, 'request completed');
}

/** True for Fastify's no-op logger (logger: false), whose methods are all one function. */
export function isNoopLogger(log: { info: unknown; warn: unknown; error: unknown }): boolean {
  return log.info === log.warn && log.warn === log.error;
}

/** Fastify's own "incoming request" / "request completed" lines off: logRequest writes one richer line. */
export function requestLogController(): LogController {
  return new LogController({ disableRequestLogging: true });
}
