import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two test files at a time on two cores: much of a file's time is spent waiting on child servers,
    // PostgreSQL and sockets. Each file has its own data dirs, ports and PostgreSQL schemas, so files
    // do not see each other. Three at a time was no faster (1,062 s against 983-1,056 s, both with
    // each file loading the modules anew).
    maxWorkers: 2,
    minWorkers: 1,
    poolOptions: {
      forks: {
        // A worker process runs file after file with the modules it already loaded: importing the
        // server's modules anew for each of 220 files took 270-290 s of the suite's 980-1,050 on
        // 2 cores; without it the suite took 755 s. No file changes module state another file
        // reads (each builds its own app, store and servers). A test that measures its process's
        // memory does so in a child process of its own (test/helpers/flatfile-read-memory.ts,
        // import-heap.ts): a shared worker's memory holds earlier files' heaps.
        isolate: false,
      },
    },
    reporters: ['default'],
  },
});
