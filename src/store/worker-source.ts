import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/** How to start a worker thread: `new Worker(filename, { eval })`. */
export interface WorkerSource {
  filename: string | URL;
  eval: boolean;
}

/**
 * How to start the worker whose code is the module `name` beside the module at `here` (its
 * import.meta.url): the compiled `<name>.js`, or, when `here` is TypeScript source (vitest,
 * tsx), `<name>.ts` loaded through tsx's CommonJS hook (on Node 20 a worker cannot take
 * `--import tsx`: tsx registers its ESM hooks on the main thread only). Null when neither is
 * there, or tsx is missing beside a .ts module: the caller then does the work on its own thread.
 */
export function workerSource(here: string, name: string): WorkerSource | null {
  try {
    if (fileURLToPath(here).endsWith('.ts')) {
      const worker = fileURLToPath(new URL(`./${name}.ts`, here));
      const tsx = createRequire(here).resolve('tsx/cjs/api');
      return existsSync(worker) ? { filename: `require(${JSON.stringify(tsx)}).register();\nrequire(${JSON.stringify(worker)});`, eval: true } : null;
    }
    const worker = new URL(`./${name}.js`, here);
    return existsSync(worker) ? { filename: worker, eval: false } : null;
  } catch {
    return null; // no tsx beside a .ts module, or no file URL
  }
}
