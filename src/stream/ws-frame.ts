// WebSocket text messages framed once and written as they are to many connections. `ws.send`
// builds a frame header and makes a write of two buffers for every connection, with a few objects
// each time; for 100 subscribers of T.* at a thousand frames a second that is 100,000 sends a
// second, and most of the fan-out's time and garbage. A server's frames are never masked, so the
// same bytes (header and payload in one Buffer) are right for every connection: they go to each
// socket in one write, in the order ws's own sends go (both write to the same socket stream).
import type { WebSocket } from 'ws';

/** The RFC 6455 frame of one whole text message, unmasked (as servers send): header and payload in one Buffer. */
export function textFrame(payload: Buffer): Buffer {
  return textFrames([payload]);
}

/** The frames of several whole text messages, one after another in one Buffer. */
export function textFrames(payloads: readonly Buffer[]): Buffer {
  let size = 0;
  for (const p of payloads) size += headerBytes(p.length) + p.length;
  const out = Buffer.allocUnsafe(size);
  let at = 0;
  for (const p of payloads) {
    const n = p.length;
    out[at] = 0x81; // FIN, opcode 1 (text)
    if (n < 126) out[at + 1] = n;
    else if (n < 65536) {
      out[at + 1] = 126;
      out.writeUInt16BE(n, at + 2);
    } else {
      out[at + 1] = 127;
      out.writeUInt32BE(0, at + 2);
      out.writeUInt32BE(n, at + 6);
    }
    at += headerBytes(n);
    at += p.copy(out, at);
  }
  return out;
}

const headerBytes = (n: number) => (n < 126 ? 2 : n < 65536 ? 4 : 10);

/** The parts of ws's WebSocket this module relies on (ws 8: not in its typings). */
interface WsInternals {
  _socket?: { write(data: Buffer): boolean; destroyed: boolean } | null;
  _sender?: { _state?: number; _queue?: unknown[] } | null;
}

/**
 * Sends a message framed by textFrame (`payload` is the same message unframed). The frame is
 * written straight to the socket when ws's own sender has nothing waiting (its queue fills only
 * while a compressed message is being made, which this feed's server never negotiates); else,
 * and on a connection ws does not expose as expected, ws.send queues it behind the rest.
 */
export function sendFramed(ws: WebSocket, frame: Buffer, payload: Buffer): void {
  const socket = idleSocket(ws);
  if (socket) socket.write(frame);
  else ws.send(payload, { binary: false });
}

/**
 * Sends several messages at once: `frames` is their textFrames Buffer (so a socket gets one
 * write, one system call, for all of them) and `payloads` the same messages unframed, sent one by
 * one through ws.send when the frames cannot be written straight.
 */
export function sendFramedRun(ws: WebSocket, frames: Buffer, payloads: readonly Buffer[]): void {
  const socket = idleSocket(ws);
  if (socket) socket.write(frames);
  else for (const p of payloads) ws.send(p, { binary: false });
}

/** The socket when ws's own sender has nothing waiting (so a write lands after everything ws sent), else undefined. */
function idleSocket(ws: WebSocket): { write(data: Buffer): boolean } | undefined {
  const { _socket: socket, _sender: sender } = ws as unknown as WsInternals;
  return socket && !socket.destroyed && sender && (sender._state ?? 0) === 0 && (sender._queue?.length ?? 0) === 0 ? socket : undefined;
}
