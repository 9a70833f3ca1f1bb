// Compiles the server's TypeScript (src/, without the dashboard's src/web) to JavaScript in dist/
// (or the folder given as the first argument), file for file, as `tsc -p tsconfig.build.json`
// lays it out. esbuild only strips the types: it takes well under a second where tsc, which also
// checks them, takes tens of CPU seconds, and this runs in every `npm ci` (through `prepare`).
// The types are checked by `npm run typecheck` and by the test suite (test/cli/build-migrate.test.ts).
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const src = join(root, 'src');
const outdir = resolve(process.argv[2] ?? join(root, 'dist'));

const files = [];
const walk = (dir) => {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, e.name);
    if (e.isDirectory()) {
      if (path !== join(src, 'web')) walk(path);
    } else if (e.name.endsWith('.ts') && !e.name.endsWith('.d.ts')) files.push(path);
  }
};
walk(src);

buildSync({
  entryPoints: files,
  outdir,
  outbase: src,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  tsconfig: join(root, 'tsconfig.json'),
  logLevel: 'warning',
});
