// Messages framed once for many connections: the bytes are those ws itself would write for the
// message, for every length class of the header, and a connection receives them as one message.
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import * as ws from 'ws';
import { WebSocket, WebSocketServer } from 'ws';
import { sendFramed, textFrame } from '../../src/stream/ws-frame.js';

// ws's own framing, exported by the package but not in its typings
const { Sender } = ws as unknown as { Sender: { frame(data: Buffer, opts: object): Buffer[] } };

describe('pre-framed WebSocket messages', () => {
  it("are byte for byte the frame ws's own sender makes, at every header size", () => {
    for (const n of [0, 1, 125, 126, 127, 65535, 65536, 70000]) {
      const payload = Buffer.alloc(n, 'a');
      const theirs = Buffer.concat(Sender.frame(payload, { fin: true, opcode: 1, mask: false, readOnly: true, rsv1: false }));
      expect(textFrame(payload).equals(theirs), `${n} bytes`).toBe(true);
    }
  });

  it("reach a client as whole text messages, in order with the connection's other sends", async () => {
    const wss = new WebSocketServer({ port: 0, host: '127.0.0.1', perMessageDeflate: false });
    try {
      await once(wss, 'listening');
      const client = new WebSocket(`ws://127.0.0.1:${(wss.address() as AddressInfo).port}`);
      const [server] = (await once(wss, 'connection')) as [WebSocket];
      const got: string[] = [];
      client.on('message', (data, isBinary) => got.push(`${isBinary ? 'binary' : 'text'}:${String(data).length}`));
      await once(client, 'open');
      const big = Buffer.from(`[${'"x",'.repeat(20_000)}"x"]`);
      server.send('[1]');
      sendFramed(server, textFrame(big), big);
      server.send('[2]');
      sendFramed(server, textFrame(Buffer.from('[3]')), Buffer.from('[3]'));
      while (got.length < 4) await new Promise((r) => setTimeout(r, 10));
      expect(got).toEqual(['text:3', `text:${big.length}`, 'text:3', 'text:3']);
      client.close();
    } finally {
      wss.close();
    }
  });
});
