// How a JSON body is written. Every body goes one way (getRoute in route.ts): the handler returns
// the inner body; `envelope` wraps it ({ok,data} unless the server is native); the route's declared
// serializer writes it; the response cache keeps that text. Routes never call JSON.stringify or
// reply.serializer themselves.

/** Wraps an inner body in the envelope the server is configured with. */
export function envelope(wrapped: boolean, inner: unknown, ok: boolean): unknown {
  return wrapped ? { ok, data: inner } : inner;
}

/**
 * How a route's body is serialized:
 * - 'schema' (the default): the serializer Fastify compiles from the route's response schema; it
 *   writes only declared keys and bigint values as bare integers.
 * - 'native': JSON.stringify, for bodies that hold exactly their schema's keys and no bigint, where
 *   it is several times faster (pages of up to 50,000 bars or data-set rows); JsonItems in the body
 *   are spliced in as they are.
 */
export type SerializerKind = 'schema' | 'native';

/** A value whose JSON is written elsewhere, as text or bytes, and spliced in by the native serializer. */
interface Spliced {
  parts(): readonly (string | Buffer)[];
}

// Spliced values met by the JSON.stringify call running now (it is synchronous, so one list serves).
let pending: Spliced[] = [];
// The marker holds NUL characters, which no other value of these bodies holds (item text is
// spliced in after the search); JSON writes them as \u0000, which is what the pattern finds.
const MARK = '\u0000json-items\u0000';
const MARK_PATTERN = new RegExp(`"${JSON.stringify(MARK).slice(1, -1).replace(/\\/g, '\\\\')}(\\d+)"`, 'g');

/**
 * An array whose items are already JSON text (e.g. stored articles written from validated
 * records): a native serializer splices them in rather than parsing and writing them again.
 */
export class JsonItems {
  constructor(readonly items: readonly string[]) {}

  get length(): number {
    return this.items.length;
  }

  parts(): readonly string[] {
    return [`[${this.items.join(',')}]`];
  }

  toJSON(): string {
    return mark(this);
  }
}

/**
 * An array whose items the store joined already (JSON items separated by commas, without the
 * brackets): as text, as UTF-8 bytes, or as several such texts or bytes to be joined by commas in turn,
 * with its length. Bytes stay bytes and texts are not joined into one string: the body is written
 * as one buffer.
 */
export class JoinedJsonItems {
  constructor(
    private readonly joined: string | Buffer | readonly (string | Buffer)[],
    readonly length: number,
  ) {}

  parts(): readonly (string | Buffer)[] {
    if (typeof this.joined === 'string' || Buffer.isBuffer(this.joined)) return ['[', this.joined, ']'];
    const parts: (string | Buffer)[] = ['['];
    this.joined.forEach((text, i) => (i === 0 ? parts.push(text) : parts.push(',', text)));
    parts.push(']');
    return parts;
  }

  toJSON(): string {
    return mark(this);
  }
}

/**
 * An array already written as one JSON text (a page of trades written straight from the rows
 * the store read), with its length: a native serializer splices the text in as it is.
 */
export class JsonArray {
  constructor(
    private readonly text: string,
    readonly length: number,
  ) {}

  parts(): readonly string[] {
    return [this.text];
  }

  toJSON(): string {
    return mark(this);
  }
}

/** One JSON value already written as bytes (a ticker's snapshot rendered once per change): spliced in as it is. */
export class JsonValue {
  constructor(private readonly json: Buffer) {}

  parts(): readonly Buffer[] {
    return [this.json];
  }

  toJSON(): string {
    return mark(this);
  }
}

function mark(value: Spliced): string {
  pending.push(value);
  return `${MARK}${pending.length - 1}`;
}

/** Bodies with spliced JSON at least this long are written as bytes (see nativeJson). */
const BYTES_FROM = 16 * 1024;

/**
 * The 'native' serializer: JSON.stringify, with the texts of spliced values put in place of their
 * markers. A body is written as one buffer when a spliced value holds bytes or the spliced text is
 * long: each piece is encoded once into it, where joining them would copy a long text into a new
 * string and the socket would then encode that again.
 */
export function nativeJson(payload: unknown): string | Buffer {
  return joined(splicedPieces(payload));
}

/**
 * What nativeJson writes, as buffers to send in turn when spliced values hold `minBytes` bytes or
 * more (the text around and between them encoded, spliced bytes as they are, not copied); else as
 * nativeJson writes it (then one buffer costs less than pieces).
 */
export function nativeJsonOrPieces(payload: unknown, minBytes: number): string | Buffer | Buffer[] {
  const split = splicedPieces(payload);
  if (typeof split === 'string') return split;
  let bytes = 0;
  for (const p of split.pieces) if (typeof p !== 'string') bytes += p.length;
  if (bytes < minBytes) return joined(split);
  return split.pieces.map((p) => (p === ',' ? COMMA : typeof p === 'string' ? Buffer.from(p) : p));
}

const COMMA = Buffer.from(',');

/** The pieces of splicedPieces written as one text, or as one buffer (see nativeJson). */
function joined(split: ReturnType<typeof splicedPieces>): string | Buffer {
  if (typeof split === 'string') return split;
  const { pieces, bytes, spliced } = split;
  if (!bytes && spliced < BYTES_FROM) return pieces.join('');
  let size = 0;
  for (const p of pieces) size += typeof p === 'string' ? Buffer.byteLength(p) : p.length;
  const out = Buffer.allocUnsafe(size);
  let offset = 0;
  for (const p of pieces) offset += typeof p === 'string' ? out.write(p, offset) : p.copy(out, offset);
  return out;
}

/** JSON.stringify of the payload, cut where spliced values go and with their parts in place (or the text, when none). */
function splicedPieces(payload: unknown): string | { pieces: (string | Buffer)[]; bytes: boolean; spliced: number } {
  pending = [];
  const text = JSON.stringify(payload);
  if (pending.length === 0) return text;
  const found = pending;
  pending = [];
  const pieces: (string | Buffer)[] = [];
  let bytes = false;
  let spliced = 0;
  let at = 0;
  for (const m of text.matchAll(MARK_PATTERN)) {
    pieces.push(text.slice(at, m.index));
    for (const part of found[Number(m[1])]!.parts()) {
      pieces.push(part);
      spliced += part.length;
      if (typeof part !== 'string') bytes = true;
    }
    at = m.index + m[0].length;
  }
  pieces.push(text.slice(at));
  return { pieces, bytes, spliced };
}

/** Fastify's default serializer factory (fast-json-stringify) as the schema controller takes it. */
type SerializerFactory = (externalSchemas?: unknown, options?: object) => (route: { schema?: unknown; method: string; url: string; httpStatus: string }) => (doc: unknown) => string;

/**
 * Fastify's serializer factory with one compiled serializer per distinct response schema. Every
 * route declares its error bodies (the same two schemas everywhere) and the API is registered at
 * the root and under each fixed prefix (api-bases.ts), so without sharing the same few schemas
 * would be compiled hundreds of times at start-up. The compiled code depends on the schema's
 * content alone (JSON Schema keywords; TypeBox's symbol keys play no part).
 */
export function sharedSerializers(base: SerializerFactory): SerializerFactory {
  return (externalSchemas, options) => {
    const compile = base(externalSchemas, options);
    const built = new Map<string, (doc: unknown) => string>();
    return (route) => {
      let text: string;
      try {
        text = JSON.stringify(route.schema);
      } catch {
        return compile(route); // a schema JSON cannot write (a bigint default): not shared
      }
      let fn = built.get(text);
      if (fn === undefined) {
        fn = compile(route);
        built.set(text, fn);
      }
      return fn;
    };
  };
}
