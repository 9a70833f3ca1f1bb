import { promisify } from 'node:util';
import * as zlib from 'node:zlib';
import { constants, deflateRaw, deflateRawSync } from 'node:zlib';
import { yieldToLoop } from '../services/loop-slices.js';

// A gzip body made of two pieces compressed once and a few bytes spliced between them on every
// send: a cached answer is the same bytes but for its request id, and compressing the whole body
// again for each client that accepts gzip cost more than the rest of the answer (a 272 KiB page:
// milliseconds against a fifth of one). The first piece ends with a sync flush (byte-aligned, not
// final), the spliced bytes go in a stored block, the second piece is a final deflate stream of its
// own (it refers to nothing before it), and the trailer's CRC-32 is combined from the pieces' CRCs.

/** The compressed pieces around the spliced bytes, with the CRC-32 and length of what each holds. */
export interface GzipPieces {
  head: Buffer;
  tail: Buffer;
  headCrc: number;
  tailCrc: number;
  headLength: number;
  tailLength: number;
}

/** gzip's member header: deflate, no name or time, unknown OS. */
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0xff]);

/** Compresses the bytes before and after the splice (each once, at zlib's default level). */
export function gzipPieces(head: Buffer, tail: Buffer): GzipPieces {
  return {
    head: Buffer.concat([GZIP_HEADER, deflateRawSync(head, { finishFlush: constants.Z_SYNC_FLUSH })]),
    tail: deflateRawSync(tail),
    headCrc: crc32(head),
    tailCrc: crc32(tail),
    headLength: head.length,
    tailLength: tail.length,
  };
}

const deflateRawAsync = promisify(deflateRaw);
/** Bytes of CRC-32 computed between two turns of the event loop (about a ms). */
const CRC_SLICE = 1024 * 1024;

/**
 * gzipPieces for a large body: compressed on the thread pool, the CRCs a slice at a time between
 * turns of the event loop (a 10 MB answer took 150-300 ms of the loop to compress in one go).
 */
export async function gzipPiecesOffLoop(head: Buffer, tail: Buffer): Promise<GzipPieces> {
  const [h, t] = await Promise.all([deflateRawAsync(head, { finishFlush: constants.Z_SYNC_FLUSH }), deflateRawAsync(tail)]);
  return {
    head: Buffer.concat([GZIP_HEADER, h]),
    tail: t,
    headCrc: await slicedCrc32(head),
    tailCrc: await slicedCrc32(tail),
    headLength: head.length,
    tailLength: tail.length,
  };
}

async function slicedCrc32(bytes: Buffer): Promise<number> {
  let crc = 0;
  for (let at = 0; at < bytes.length; at += CRC_SLICE) {
    if (at > 0) await yieldToLoop();
    crc = crc32(bytes.subarray(at, at + CRC_SLICE), crc);
  }
  return crc;
}

/** The gzip body of head + `middle` + tail (`middle` under 64 KiB: one stored block). */
export function splicedGzip(p: GzipPieces, middle: Buffer): Buffer {
  const n = middle.length;
  if (n > 0xffff) throw new RangeError('the spliced bytes must fit one stored block');
  const out = Buffer.allocUnsafe(p.head.length + 5 + n + p.tail.length + 8);
  let at = p.head.copy(out, 0);
  // stored block, not final: BFINAL 0, BTYPE 00 (the first piece ended byte-aligned), LEN, NLEN
  out[at++] = 0;
  out.writeUInt16LE(n, at);
  out.writeUInt16LE(~n & 0xffff, at + 2);
  at += 4;
  at += middle.copy(out, at);
  at += p.tail.copy(out, at);
  const crc = crc32Combine(crc32Combine(p.headCrc, crc32(middle), n), p.tailCrc, p.tailLength);
  out.writeUInt32LE(crc, at);
  out.writeUInt32LE((p.headLength + n + p.tailLength) % 2 ** 32, at + 4);
  return out;
}

const POLY = 0xedb88320; // CRC-32 (IEEE), reflected

const TABLE = (() => {
  const t = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let c = i;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ POLY : c >>> 1;
    t[i] = c >>> 0;
  }
  return t;
})();

/** zlib's own CRC-32, in Node from 20.15 (the table below otherwise). */
const nativeCrc32 = (zlib as { crc32?: (data: Uint8Array, value?: number) => number }).crc32;

/** CRC-32 of `bytes` (gzip's), continuing `prior` (the CRC-32 of the bytes before them). */
export function crc32(bytes: Uint8Array, prior = 0): number {
  if (nativeCrc32 !== undefined) return nativeCrc32(bytes, prior);
  return tableCrc32(bytes, prior);
}

/** CRC-32 a byte at a time from a table, continuing `prior`. */
export function tableCrc32(bytes: Uint8Array, prior = 0): number {
  let c = (prior ^ 0xffffffff) >>> 0;
  for (let i = 0; i < bytes.length; i++) c = TABLE[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** a(x) · b(x) modulo the CRC polynomial, both reflected. */
function multModP(a: number, b: number): number {
  let m = 0x80000000;
  let p = 0;
  for (;;) {
    if ((a & m) !== 0) {
      p ^= b;
      if ((a & (m - 1)) === 0) break;
    }
    m >>>= 1;
    b = b & 1 ? (b >>> 1) ^ POLY : b >>> 1;
  }
  return p >>> 0;
}

/** X2N[k] = x^(2^k) modulo the polynomial. */
const X2N = (() => {
  const t = new Uint32Array(32);
  let p = 0x40000000; // x^1
  t[0] = p;
  for (let k = 1; k < 32; k++) t[k] = p = multModP(p, p);
  return t;
})();

/** x^(n · 2^k) modulo the polynomial. */
function x2nModP(n: number, k: number): number {
  let p = 0x80000000; // x^0
  while (n > 0) {
    if (n & 1) p = multModP(X2N[k & 31]!, p);
    n = Math.floor(n / 2);
    k++;
  }
  return p;
}

/** The CRC-32 of A followed by B from the CRC of A, the CRC of B and B's length (zlib's crc32_combine). */
export function crc32Combine(crcA: number, crcB: number, lengthB: number): number {
  return (multModP(x2nModP(lengthB, 3), crcA) ^ crcB) >>> 0;
}
