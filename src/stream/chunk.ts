// A run of encoded events that several connections receive alike. The hub builds one chunk per
// group of subscribers that matched the same events of a published batch, so the JSON text,
// and the frame bytes when the chunk makes a whole frame, are made once for all of them.

let nextId = 0;

export class Chunk {
  /** Names the chunk among those queued in one turn (connections whose queues hold the same chunks share frames). */
  readonly id = ++nextId;
  /** UTF-8 bytes of the events joined by commas. */
  readonly bytes: number;
  private joined: string | undefined;
  private frameBuffer: Buffer | undefined;

  constructor(
    /** The events' JSON texts, in order. */
    readonly events: readonly string[],
    /** UTF-8 bytes of each. */
    readonly sizes: readonly number[],
  ) {
    let b = events.length - 1;
    for (const s of sizes) b += s;
    this.bytes = b;
  }

  static of(json: string, bytes: number): Chunk {
    return new Chunk([json], [bytes]);
  }

  get json(): string {
    return (this.joined ??= this.events.join(','));
  }

  /** The chunk as one frame (`[...]`), encoded once and shared by every connection sending it. */
  frame(): Buffer {
    return (this.frameBuffer ??= Buffer.from(`[${this.json}]`));
  }
}
