// Messages framed once for many connections: the bytes are those ws itself would write for the
// message, for every length class of the header, and a connection receives them as one message.
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import * as ws from 'ws';
import { WebSocket, WebSocketServer } from 'ws';
import { sendFramed, sendFramedRun, textFrame, textFrames } from '../../src/stream/ws-frame.js';

// ws's own framing, exported by the package but not in its typings
const { Sender } = ws as unknown as { Sender: { frame(data: Buffer, opts: object): Buffer[] } };

describe('pre-framed WebSocket messages', () => {
  it("are byte for byte the frame ws's own sender makes, at every header size, alone and several in one Buffer", () => {
    const payloads = [0, 1, 125, 126, 127, 65535, 65536, 70000].map((n) => Buffer.alloc(n, 'a'));
    const theirs = payloads.map((p) => Buffer.concat(Sender.frame(p, { fin: true, opcode: 1, mask: false, readOnly: true, rsv1: false })));
    for (const [k, p] of payloads.entries()) expect(textFrame(p).equals(theirs[k]!), `${p.length} bytes`).toBe(true);
    expect(textFrames(payloads).equals(Buffer.concat(theirs))).toBe(true);
  });

  it("reach a client as whole text messages, in order with the connection's other sends", async () => {
    await withConnection(async (server, got) => {
      const big = Buffer.from(`[${'"x",'.repeat(20_000)}"x"]`);
      server.send('[1]');
      sendFramed(server, textFrame(big), big);
      server.send('[2]');
      sendFramed(server, textFrame(Buffer.from('[3]')), Buffer.from('[3]'));
      while (got.length < 4) await new Promise((r) => setTimeout(r, 10));
      expect(got.map((m) => `${m.isBinary ? 'binary' : 'text'}:${m.text.length}`)).toEqual(['text:3', `text:${big.length}`, 'text:3', 'text:3']);
    });
  });

  it('sent as a run reach a client as whole messages in order, from one socket write', async () => {
    await withConnection(async (server, got) => {
      const payloads = ['[1]', `[${'"y",'.repeat(100)}"y"]`, '[3]'].map((t) => Buffer.from(t));
      const socket = (server as unknown as { _socket: { write: (...args: unknown[]) => boolean } })._socket;
      const write = socket.write.bind(socket);
      let writes = 0;
      socket.write = (...args: unknown[]) => {
        writes++;
        return write(...args);
      };
      server.send('[0]');
      const before = writes;
      sendFramedRun(server, textFrames(payloads), payloads);
      expect(writes - before).toBe(1);
      server.send('[4]');
      while (got.length < 5) await new Promise((r) => setTimeout(r, 10));
      expect(got.map((m) => m.text)).toEqual(['[0]', ...payloads.map(String), '[4]']);
    });
  });
});

/** Runs `body` with the server side of a fresh connection and the messages its client receives. */
async function withConnection(body: (server: WebSocket, got: { text: string; isBinary: boolean }[]) => Promise<void>): Promise<void> {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1', perMessageDeflate: false });
  try {
    await once(wss, 'listening');
    const client = new WebSocket(`ws://127.0.0.1:${(wss.address() as AddressInfo).port}`);
    const [server] = (await once(wss, 'connection')) as [WebSocket];
    const got: { text: string; isBinary: boolean }[] = [];
    client.on('message', (data, isBinary) => got.push({ text: String(data), isBinary }));
    await once(client, 'open');
    await body(server, got);
    client.close();
  } finally {
    wss.close();
  }
}
