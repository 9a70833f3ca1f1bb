// A flat file's bytes carried from the importing thread to the reader thread over a MessagePort,
// for files that are streams rather than paths (objects downloaded from the flat-file bucket):
// the importing thread pumps the stream into the port, the reader thread reads the port as a
// FlatFileSource. At most MAX_UNACKED chunks are posted and not yet taken by the reader, so a
// reader slower than the download holds the download back (and, through TCP, the server) instead
// of piling bytes up in memory.
import type { MessagePort } from 'node:worker_threads';
import type { FlatFileSource } from './flatfile.js';

const MAX_UNACKED = 8;

type ToReader = { chunk: Uint8Array } | { end: true } | { error: string };
interface FromReader {
  ack: number;
}

/**
 * Posts the source's bytes to `port` until they end, the stream fails (the reader is told the
 * error) or `stop` is called (the reader was abandoned). Never rejects.
 */
export function pumpToPort(source: FlatFileSource, port: MessagePort): { stop: () => void } {
  let stopped = false;
  let unacked = 0;
  let resume: (() => void) | undefined;
  port.on('message', (m: FromReader) => {
    unacked -= m.ack;
    resume?.();
  });
  const stop = () => {
    stopped = true;
    resume?.();
    port.close();
  };
  void (async () => {
    let iterator: AsyncIterator<Uint8Array> | undefined;
    try {
      iterator = (await source.open())[Symbol.asyncIterator]();
      for (;;) {
        while (unacked >= MAX_UNACKED && !stopped) await new Promise<void>((r) => (resume = r));
        resume = undefined;
        if (stopped) break;
        const step = await iterator.next();
        if (stopped) break;
        if (step.done) {
          port.postMessage({ end: true } satisfies ToReader);
          return;
        }
        // A copy of its own: a Buffer may be a view of a pool, which transferring would take away.
        const chunk = step.value.slice();
        unacked++;
        port.postMessage({ chunk } satisfies ToReader, [chunk.buffer as ArrayBuffer]);
      }
      await iterator.return?.();
    } catch (err) {
      if (!stopped) port.postMessage({ error: (err as Error).message } satisfies ToReader);
      await iterator?.return?.().catch(() => {});
    }
  })();
  return { stop };
}

/** The reader thread's side: the bytes arriving on `port` as a source that can be opened once. */
export function portSource(name: string, totalBytes: number, port: MessagePort): FlatFileSource {
  return {
    name,
    totalBytes,
    async open() {
      return readPort(port);
    },
  };
}

async function* readPort(port: MessagePort): AsyncGenerator<Uint8Array> {
  const inbox: ToReader[] = [];
  let wake: (() => void) | undefined;
  port.on('message', (m: ToReader) => {
    inbox.push(m);
    wake?.();
  });
  try {
    for (;;) {
      if (inbox.length === 0) await new Promise<void>((r) => (wake = r));
      wake = undefined;
      const m = inbox.shift();
      if (m === undefined) continue;
      if ('end' in m) return;
      if ('error' in m) throw new Error(m.error);
      port.postMessage({ ack: 1 } satisfies FromReader);
      yield m.chunk;
    }
  } finally {
    port.close();
  }
}
