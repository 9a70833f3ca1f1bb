// Cutting queued chunks into frames of at most `max` bytes (`[` events joined by `,` `]`), in
// order. A chunk that fits whole is copied as its joined text; one that does not is cut between
// events. An event larger than the cap travels alone in a frame of its own.
import type { Chunk } from './chunk.js';
import { textFrame, textFrames } from './ws-frame.js';

export function cutFrames(chunks: readonly Chunk[], max: number): Buffer[] {
  if (chunks.length === 1 && chunks[0]!.bytes + 2 <= max) return [chunks[0]!.frame()];
  const frames: Buffer[] = [];
  let frame: string[] = [];
  let bytes = 2;
  const cut = () => {
    frames.push(Buffer.from(`[${frame.join(',')}]`));
    frame = [];
    bytes = 2;
  };
  for (const c of chunks) {
    if (bytes + c.bytes + 1 <= max) {
      frame.push(c.json);
      bytes += c.bytes + 1;
      continue;
    }
    for (let i = 0; i < c.events.length; i++) {
      const size = c.sizes[i]! + 1;
      if (frame.length > 0 && bytes + size > max) cut();
      frame.push(c.events[i]!);
      bytes += size;
    }
  }
  if (frame.length) cut();
  return frames;
}

/**
 * The frames of one turn, shared: connections whose queues hold the same chunks in the same
 * order (every subscriber of T.* after two publishes, say) send the same Buffers, built once.
 */
export class FrameCache {
  private readonly frames = new Map<string, Buffer[]>();
  private readonly framed = new Map<Buffer, Buffer>();
  private readonly runs = new Map<readonly Buffer[], Buffer>();

  /** The WebSocket frame of a message `of` returned, built once for every connection sending it. */
  wire(payload: Buffer): Buffer {
    let frame = this.framed.get(payload);
    if (!frame) this.framed.set(payload, (frame = textFrame(payload)));
    return frame;
  }

  /**
   * The WebSocket frames of every message of a list `of` returned, joined in one Buffer: a
   * connection with several frames queued this turn (a backlog past the frame cap) writes them
   * in one call. Built once for every connection sending the same list.
   */
  wireRun(payloads: readonly Buffer[]): Buffer {
    let run = this.runs.get(payloads);
    if (!run) this.runs.set(payloads, (run = textFrames(payloads)));
    return run;
  }

  of(chunks: readonly Chunk[], max: number): Buffer[] {
    if (chunks.length === 1 && chunks[0]!.bytes + 2 <= max) return [chunks[0]!.frame()];
    let key = String(max);
    for (const c of chunks) key += `,${c.id}`;
    let frames = this.frames.get(key);
    if (!frames) this.frames.set(key, (frames = cutFrames(chunks, max)));
    return frames;
  }
}
