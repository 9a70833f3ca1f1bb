import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ENTRY = fileURLToPath(new URL('../helpers/cli-entry.ts', import.meta.url));

export interface ServeProcess {
  url: string;
  pid: number;
  child: ChildProcess;
  output(): string;
  /** SIGTERM and wait for the exit code. */
  stop(): Promise<number | null>;
}

/** Starts `tickerbase serve <args>` through tsx; resolves once it prints its address. */
export function spawnServe(args: string[], env: NodeJS.ProcessEnv = {}): Promise<ServeProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', ENTRY, 'serve', '--host', '127.0.0.1', '--port', '0', '--demo', 'no', ...args], {
      env: { ...process.env, TICKERBASE_DATA_DIR: '', DATABASE_URL: '', REDIS_URL: '', LOG_LEVEL: 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let done = false;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`serve did not start in time:\n${out}`));
    }, 120_000);
    const exited = new Promise<number | null>((res) => child.once('exit', (code) => res(code)));
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m && !done) {
        done = true;
        clearTimeout(timer);
        resolve({
          url: m[1]!,
          pid: child.pid!,
          child,
          output: () => out,
          stop: async () => {
            if (child.exitCode === null) child.kill('SIGTERM');
            return exited;
          },
        });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then((code) => {
      if (done) return;
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code}:\n${out}`));
    });
  });
}
