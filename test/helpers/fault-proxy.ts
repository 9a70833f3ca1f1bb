import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';

// A TCP proxy in front of a real server (PostgreSQL, Redis) whose behaviour a test switches at
// will, to see what the app does when a dependency misbehaves on the wire rather than in a mock:
//   pass       bytes flow both ways;
//   delay      every chunk is held `delayMs` before it is forwarded (both ways);
//   blackhole  connections are accepted (and existing ones kept open) but nothing is forwarded,
//              so the peer looks alive and silent, as after a network partition;
//   reset      every connection, open or new, is cut with a TCP RST.
// Switching back to `pass` lets new connections through; connections that were blackholed stay
// silent (the bytes they lost cannot be replayed), as on a real network.

export type FaultMode = { kind: 'pass' } | { kind: 'delay'; delayMs: number } | { kind: 'blackhole' } | { kind: 'reset' };

interface Pair {
  client: Socket;
  upstream: Socket;
  /** True once a blackhole swallowed bytes of this pair: it can never carry its protocol again. */
  broken: boolean;
}

export class FaultProxy {
  private server?: Server;
  private mode: FaultMode = { kind: 'pass' };
  private readonly pairs = new Set<Pair>();
  /** Connections accepted so far (a test can see a client reconnect). */
  accepted = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  /** Listens on 127.0.0.1 at a free port. */
  async start(): Promise<this> {
    const server = createServer((client) => this.accept(client));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', resolve);
    });
    this.server = server;
    return this;
  }

  get port(): number {
    return (this.server!.address() as AddressInfo).port;
  }

  /** The target's URL with host and port replaced by the proxy's (postgres://..., redis://...). */
  url(targetUrl: string): string {
    const u = new URL(targetUrl);
    u.hostname = '127.0.0.1';
    u.port = String(this.port);
    return u.toString();
  }

  pass(): void {
    this.mode = { kind: 'pass' };
  }

  delay(ms: number): void {
    this.mode = { kind: 'delay', delayMs: ms };
  }

  blackhole(): void {
    this.mode = { kind: 'blackhole' };
  }

  /** Cuts every open connection with RST, and every new one until the mode changes. */
  reset(): void {
    this.mode = { kind: 'reset' };
    for (const p of this.pairs) this.cut(p);
  }

  /** Open connections through the proxy. */
  get open(): number {
    return this.pairs.size;
  }

  async stop(): Promise<void> {
    for (const p of this.pairs) this.cut(p);
    const s = this.server;
    this.server = undefined;
    if (s) await new Promise<void>((r) => s.close(() => r()));
  }

  private accept(client: Socket): void {
    this.accepted++;
    client.setNoDelay(true);
    if (this.mode.kind === 'reset') {
      client.resetAndDestroy();
      return;
    }
    const upstream = connect(this.targetPort, this.targetHost);
    upstream.setNoDelay(true);
    const pair: Pair = { client, upstream, broken: false };
    this.pairs.add(pair);
    const drop = () => {
      if (!this.pairs.delete(pair)) return;
      client.destroy();
      upstream.destroy();
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    this.forward(pair, client, upstream);
    this.forward(pair, upstream, client);
  }

  private forward(pair: Pair, from: Socket, to: Socket): void {
    from.on('data', (chunk: Buffer) => {
      const mode = this.mode;
      if (pair.broken || mode.kind === 'blackhole') {
        pair.broken = true;
        return;
      }
      if (mode.kind === 'reset') {
        this.cut(pair);
        return;
      }
      if (mode.kind === 'delay') {
        // keep the order of the chunks: each waits the same time after it arrived
        from.pause();
        setTimeout(() => {
          if (!to.destroyed) to.write(chunk);
          if (!from.destroyed) from.resume();
        }, mode.delayMs);
        return;
      }
      to.write(chunk);
    });
  }

  private cut(p: Pair): void {
    this.pairs.delete(p);
    if (!p.client.destroyed) p.client.resetAndDestroy();
    if (!p.upstream.destroyed) p.upstream.resetAndDestroy();
  }
}
