// Copies the schema migrations (src/store/migrations/<engine>/*.sql) next to the compiled runner,
// which reads them relative to its own module. Part of `npm run build`; the output folder is
// dist/ unless given as the first argument.
import { copyFileSync, mkdirSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const from = join(root, 'src', 'store', 'migrations');
const to = join(resolve(process.argv[2] ?? join(root, 'dist')), 'store', 'migrations');

let copied = 0;
for (const engine of readdirSync(from, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name)) {
  mkdirSync(join(to, engine), { recursive: true });
  for (const name of readdirSync(join(from, engine)).filter((n) => n.endsWith('.sql'))) {
    copyFileSync(join(from, engine, name), join(to, engine, name));
    copied++;
  }
}
if (copied === 0) {
  console.error(`copy-sql: no .sql files under ${from}`);
  process.exit(1);
}
