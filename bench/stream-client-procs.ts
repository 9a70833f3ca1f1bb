// The subscribers of the feed benchmarks, in processes of their own (bench/stream-clients.ts):
// forked, driven as one (reset, report, exit), their counts and latencies summed.
import { fork, type ChildProcess } from 'node:child_process';

export interface Report {
  events: number;
  frames: number;
  /** One connection per client process, counted from batch heads and one by one (equal when all arrived). */
  auditHeads: number;
  auditEvents: number;
  latencies: number[];
  /** CPU time of the client processes over wall time (1 = one core busy). */
  cpuShare: number;
  cpuMicros: number;
}

function forkClients(url: string, n: number, key?: string): Promise<ChildProcess> {
  const child = fork(new URL('./stream-clients.ts', import.meta.url).pathname, [url, String(n), ...(key ? [key] : [])], {
    execArgv: ['--import', 'tsx'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', (m: { type: string }) => (m.type === 'ready' ? resolve(child) : reject(new Error(String(m.type)))));
    child.once('exit', (code) => reject(new Error(`clients exited with ${code}`)));
  });
}

/** N subscribers spread over `procs` processes, driven as one. */
export async function clients(url: string, n: number, key: string | undefined, procs: number) {
  const children: ChildProcess[] = [];
  for (let p = 0; p < procs; p++) {
    const share = Math.floor(n / procs) + (p < n % procs ? 1 : 0);
    if (share > 0) children.push(await forkClients(url, share, key));
  }
  const ask = (child: ChildProcess) =>
    new Promise<Report>((resolve) => {
      const on = (m: Report & { type: string }) => {
        if (m.type !== 'report') return;
        child.off('message', on);
        resolve(m);
      };
      child.on('message', on);
      child.send({ type: 'report' });
    });
  return {
    reset: () => children.forEach((c) => c.send({ type: 'reset' })),
    async report(): Promise<Report> {
      const all = await Promise.all(children.map(ask));
      return {
        events: all.reduce((a, r) => a + r.events, 0),
        frames: all.reduce((a, r) => a + r.frames, 0),
        auditHeads: all.reduce((a, r) => a + r.auditHeads, 0),
        auditEvents: all.reduce((a, r) => a + r.auditEvents, 0),
        latencies: all.flatMap((r) => r.latencies),
        cpuShare: all.reduce((a, r) => a + r.cpuShare, 0),
        cpuMicros: all.reduce((a, r) => a + r.cpuMicros, 0),
      };
    },
    exit: () => children.forEach((c) => c.send({ type: 'exit' })),
  };
}

