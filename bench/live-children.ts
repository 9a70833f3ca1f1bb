// The helper processes of the live benches (bench/live.ts, bench/live-memory.ts): a script forked
// under tsx that says 'ready' over IPC, then answers the messages it is sent.
import { fork, type ChildProcess } from 'node:child_process';

export interface LiveChild<T> {
  proc: ChildProcess;
  ask(m: string): Promise<T>;
  tell(m: string): void;
}

export function forkChild<T>(script: string, args: string[]): Promise<LiveChild<T>> {
  const proc = fork(new URL(script, import.meta.url).pathname, args, { execArgv: ['--import', 'tsx'] });
  const ask = (m: string) =>
    new Promise<T>((resolve) => {
      proc.once('message', (r) => resolve(r as T));
      proc.send(m);
    });
  return new Promise((resolve, reject) => {
    proc.once('message', (m) => (m === 'ready' ? resolve({ proc, ask, tell: (m: string) => proc.send(m) }) : reject(new Error(String(m)))));
    proc.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
}

/** Trades published by bench/live-publisher.ts since its last 'reset'. */
export interface Published {
  sent: number;
  stored: number;
  refused: number;
  publishMs: [number, number];
}
