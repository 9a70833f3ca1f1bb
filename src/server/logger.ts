import { LogController, type FastifyBaseLogger, type FastifyServerOptions } from 'fastify';
import pino, { type DestinationStream, type Logger } from 'pino';
import { redactUrl } from './auth.js';
import { putHundredths, putPlainAscii, putUint, MAX_HUNDREDTHS } from './ascii-bytes.js';
import { BatchedLogDestination } from './log-destination.js';

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

/** How often held log lines are written even when fewer than a batch wait (ms). */
export const LOG_FLUSH_INTERVAL_MS = 1000;

export interface ServerLogger {
  logger: Logger;
  /** Writes every held line now (synchronously): call before the process exits. */
  flush(): void;
}

/**
 * The server's logger. On a terminal: pretty lines through pino-pretty. Otherwise JSON lines to
 * stdout in batches (log-destination.ts), and at least every LOG_FLUSH_INTERVAL_MS so a quiet
 * server's lines are not held back; flush() writes what is left. `buffered: false` (the workers
 * of a cluster, which share stdout) writes each line with one write(2): a batch can exceed the
 * pipe's atomic write size and interleave with another worker's.
 */
export function createServerLogger(level = process.env.LOG_LEVEL ?? 'info', options: { buffered?: boolean } = {}): ServerLogger {
  const opts = loggerOptions(level) as pino.LoggerOptions;
  if (opts.transport) return { logger: pino(opts), flush: () => {} };
  if (options.buffered === false) return { logger: pino(opts, pino.destination({ dest: 1, sync: true })), flush: () => {} };
  const dest = new BatchedLogDestination(1);
  setInterval(() => dest.flushSync(), LOG_FLUSH_INTERVAL_MS).unref();
  process.once('exit', () => dest.flushSync()); // process.exit() and the end of the event loop
  return { logger: pino(opts, dest), flush: () => dest.flushSync() };
}

/** Which requests get an access line: all; errors (status >= 400) only; errors and one in N others; none. */
export type AccessLogMode = { kind: 'all' } | { kind: 'errors' } | { kind: 'sample'; every: number } | { kind: 'off' };

/** Parses `all`, `errors`, `sample:N` (N >= 1) or `off`; throws a message naming the flag otherwise. */
export function parseAccessLogMode(text: string): AccessLogMode {
  const v = text.trim().toLowerCase();
  if (v === 'all' || v === 'errors' || v === 'off') return { kind: v };
  const m = /^sample:(\d{1,9})$/.exec(v);
  if (m && Number(m[1]) >= 1) return { kind: 'sample', every: Number(m[1]) };
  throw new Error(`--access-log must be all, errors, sample:N (N >= 1) or off, got ${JSON.stringify(text)}`);
}

/** Fields of the access line written per request (Fastify's own request logging is turned off). */
export interface RequestLogLine {
  key_id?: string;
  method: string;
  route: string;
  url: string;
  status: number;
  duration_ms: number;
}

interface LoggedRequest {
  id: string;
  method: string;
  url: string;
  routeOptions: { url?: string };
  apiKey?: { id: string };
  log: { info: (o: object, m: string) => void; error: (o: object, m: string) => void };
}

interface LoggedReply {
  statusCode: number;
  elapsedTime: number;
}

/**
 * Writes the access line of each finished request: level, time, request id, key id (never the
 * key), route template, redacted URL, status and duration (5xx at error level, the rest info).
 * On a pino logger the line is built as text and handed to the logger's stream, skipping pino's
 * per-call object serialization (the fields are few and fixed); any other logger gets an object.
 */
export class AccessLog {
  private readonly stream: DestinationStream | undefined;
  private seen = 0;
  /** The start of every line up to the request id's value: `,"reqId":` (the label as configured). */
  private readonly idField: string;
  /** `"route":"<template>"` per route template: a server has a few hundred templates at most. */
  private readonly routeFields = new Map<string, string>();
  /** The batch buffer lines are encoded into, when the logger writes to one. */
  private readonly batch: BatchedLogDestination | undefined;
  /** The fixed parts of a line, as bytes, for `batch`. */
  private readonly parts: LineParts;

  constructor(
    private readonly logger: FastifyBaseLogger & { isLevelEnabled?: (level: string) => boolean },
    private readonly mode: AccessLogMode = { kind: 'all' },
    reqIdLabel = 'reqId',
  ) {
    const s = (logger as unknown as Record<symbol, unknown>)[pino.symbols.streamSym] as DestinationStream | undefined;
    this.stream = typeof s?.write === 'function' ? s : undefined;
    this.batch = s instanceof BatchedLogDestination ? s : undefined;
    this.idField = `,${JSON.stringify(reqIdLabel)}:`;
    this.parts = lineParts(this.idField);
  }

  /** The access line of a request Fastify answered. */
  record(req: LoggedRequest, reply: LoggedReply): void {
    this.line(req.id, req.method, req.url, req.routeOptions.url, req.apiKey?.id, reply.statusCode, reply.elapsedTime, req.log);
  }

  /** The access line of a request answered with `status` after `elapsedMs` (`log`: the request's logger). */
  line(id: string, method: string, rawUrl: string, routeTemplate: string | undefined, keyId: string | undefined, status: number, elapsedMs: number, log: LoggedRequest['log']): void {
    if (!this.wanted(status)) return;
    const error = status >= 500;
    if (this.logger.isLevelEnabled?.(error ? 'error' : 'info') === false) return;
    const hundredths = Math.round(elapsedMs * 100);
    const durationMs = hundredths / 100;
    const route = routeTemplate ?? '(no route)';
    const url = redactUrl(rawUrl);
    if (this.batch !== undefined && this.encode(this.batch, error, id, keyId, method, route, url, status, hundredths)) return;
    if (this.stream === undefined) {
      const line: RequestLogLine = { key_id: keyId, method, route, url, status, duration_ms: durationMs };
      if (error) log.error(line, 'request completed');
      else log.info(line, 'request completed');
      return;
    }
    let routeField = this.routeFields.get(route);
    if (routeField === undefined) this.routeFields.set(route, (routeField = `"route":${JSON.stringify(route)}`));
    const key = keyId === undefined ? '' : `,"key_id":${JSON.stringify(keyId)}`;
    this.stream.write(
      `{"level":${error ? 50 : 30},"time":${Date.now()}${this.idField}${JSON.stringify(id)}${key},"method":${JSON.stringify(method)},` +
        `${routeField},"url":${JSON.stringify(url)},"status":${status},"duration_ms":${durationMs},"msg":"request completed"}\n`,
    );
  }

  /**
   * Encodes the line into the batch buffer, the same bytes as the text line below; false (having
   * written nothing) when a field needs JSON escapes or a number is out of the plain range, and
   * the text line is written instead.
   */
  private encode(dest: BatchedLogDestination, error: boolean, id: string, keyId: string | undefined, method: string, routeTemplate: string, url: string, status: number, hundredths: number): boolean {
    if (!(hundredths >= 0 && hundredths <= MAX_HUNDREDTHS) || !Number.isInteger(status) || status < 0) return false;
    const p = this.parts;
    const route = p.routes.get(routeTemplate) ?? kept(p.routes, routeTemplate, `"route":${JSON.stringify(routeTemplate)}`);
    const key = keyId === undefined ? undefined : (p.keys.get(keyId) ?? kept(p.keys, keyId, `,"key_id":${JSON.stringify(keyId)}`));
    const methodField = p.methods.get(method) ?? kept(p.methods, method, `,"method":${JSON.stringify(method)},`);
    // JSON's own characters, digits of the time (16), status and duration (20) at most
    const size = p.fixed + id.length + (key?.length ?? 0) + methodField.length + route.length + url.length + 36;
    const start = dest.reserve(size);
    if (start < 0) return false;
    const buf = dest.bytes;
    buf.set(error ? p.error : p.info, start);
    let at = putUint(buf, start + p.info.length, Date.now());
    buf.set(p.id, at);
    at = putPlainAscii(buf, at + p.id.length, id);
    if (at < 0) return false;
    buf[at++] = 0x22; // the id's closing quote
    if (key !== undefined) {
      buf.set(key, at);
      at += key.length;
    }
    buf.set(methodField, at);
    at += methodField.length;
    buf.set(route, at);
    at += route.length;
    buf.set(p.url, at);
    at = putPlainAscii(buf, at + p.url.length, url);
    if (at < 0) return false;
    buf.set(p.status, at);
    at = putUint(buf, at + p.status.length, status);
    buf.set(p.duration, at);
    at = putHundredths(buf, at + p.duration.length, hundredths);
    buf.set(p.end, at);
    dest.commit(at + p.end.length);
    return true;
  }

  private wanted(status: number): boolean {
    const { mode } = this;
    if (mode.kind === 'all') return true;
    if (mode.kind === 'off') return false;
    if (status >= 400) return true;
    return mode.kind === 'sample' && this.seen++ % mode.every === 0;
  }
}

/** The fixed bytes of an access line, and the bytes of the fields that repeat. */
interface LineParts {
  info: Buffer;
  error: Buffer;
  /** The request id's name, colon and opening quote. */
  id: Buffer;
  url: Buffer;
  status: Buffer;
  duration: Buffer;
  end: Buffer;
  /** Bytes of the fixed parts of a line, all counted. */
  fixed: number;
  /** `"route":"<template>"` per route template (a few hundred), `,"key_id":"<id>"` per key id, `,"method":"<m>",` per method. */
  routes: Map<string, Buffer>;
  keys: Map<string, Buffer>;
  methods: Map<string, Buffer>;
}

/** Fragments kept at most per kind; past this they are made anew (a server with very many keys). */
const MAX_FRAGMENTS = 10_000;

/** `text` as bytes, kept in `map` under `name`. */
function kept(map: Map<string, Buffer>, name: string, text: string): Buffer {
  if (map.size >= MAX_FRAGMENTS) map.clear();
  const b = Buffer.from(text, 'utf8');
  map.set(name, b);
  return b;
}

function lineParts(idField: string): LineParts {
  const bytes = (text: string) => Buffer.from(text, 'utf8');
  const parts: LineParts = {
    info: bytes('{"level":30,"time":'),
    error: bytes('{"level":50,"time":'),
    id: bytes(`${idField}"`),
    url: bytes(',"url":"'),
    status: bytes('","status":'),
    duration: bytes(',"duration_ms":'),
    end: bytes(',"msg":"request completed"}\n'),
    fixed: 0,
    routes: new Map(),
    keys: new Map(),
    methods: new Map(),
  };
  parts.fixed = parts.info.length + parts.id.length + 1 + parts.url.length + parts.status.length + parts.duration.length + parts.end.length;
  return parts;
}

/** True for Fastify's no-op logger (logger: false), whose methods are all one function. */
export function isNoopLogger(log: { info: unknown; warn: unknown; error: unknown }): boolean {
  return log.info === log.warn && log.warn === log.error;
}

/** Fastify's own "incoming request" / "request completed" lines off: AccessLog writes one richer line. */
export function requestLogController(): LogController {
  return new LogController({ disableRequestLogging: true });
}
