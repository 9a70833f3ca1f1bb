import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// The dashboard's build: Preact through esbuild's automatic JSX runtime, served under /dashboard/,
// written to dist/web with content-hashed file names (the server caches those for a year).
const here = dirname(fileURLToPath(import.meta.url));

export default defineConfig({
  root: here,
  base: '/dashboard/',
  esbuild: { jsx: 'automatic', jsxImportSource: 'preact' },
  build: {
    outDir: resolve(here, '../../dist/web'),
    emptyOutDir: true,
    assetsDir: 'assets',
    target: 'es2020',
    sourcemap: false,
    reportCompressedSize: true,
    chunkSizeWarningLimit: 400,
  },
  logLevel: 'warn',
});
