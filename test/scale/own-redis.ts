// A Redis of the test's own, on a free port, that the test may stop and start again (outage
// tests never touch the machine's shared Redis). No persistence: a restart is an empty Redis.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { freePort } from '../helpers/free-port.js';

export const HAS_REDIS_SERVER = spawnSync('redis-server', ['--version']).status === 0;


export class OwnRedis {
  private child: ChildProcess | undefined;

  private constructor(readonly port: number) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  static async start(): Promise<OwnRedis> {
    const r = new OwnRedis(await freePort());
    await r.start();
    return r;
  }

  /** Starts (again) on the same port; resolves once it accepts connections. */
  async start(): Promise<void> {
    const child = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    let out = '';
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`redis-server did not start:\n${out}`)), 10_000);
      child.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('Ready to accept connections')) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`redis-server exited with ${code}:\n${out}`));
      });
    });
  }

  /** Kills it at once (an outage, not a clean stop); resolves once it has exited. */
  async kill(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((res) => child.once('exit', res));
    child.kill('SIGKILL');
    await exited;
  }
}
