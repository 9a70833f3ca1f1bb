import { Readable } from 'node:stream';

/**
 * A response body sent as the buffers it is made of, in turn, without copying them into one:
 * a cached answer (its bytes before the request id, the id, the rest) or a page whose items are a
 * slice of a list kept in memory. Fastify sends a stream as it comes, so the route sets the
 * Content-Length from byteLength; the steps that need the body whole (hashing, compression other
 * than spliced gzip, the data-window notice) take bytes().
 */
export class BodyPieces extends Readable {
  /** The body's length in bytes (its Content-Length). */
  readonly byteLength: number;
  private readonly pieces: readonly Buffer[];

  constructor(pieces: readonly Buffer[]) {
    super();
    this.pieces = pieces.filter((p) => p.length > 0); // an empty chunk pushed would read as no data yet
    let n = 0;
    for (const p of this.pieces) n += p.length;
    this.byteLength = n;
  }

  override _read(): void {
    for (const p of this.pieces) this.push(p);
    this.push(null);
  }

  /** The whole body in one buffer. */
  bytes(): Buffer {
    return Buffer.concat(this.pieces, this.byteLength);
  }
}
