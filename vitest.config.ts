import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two test files at a time on two cores: much of a file's time is spent waiting on child servers,
    // PostgreSQL and sockets. Each file has its own data dirs, ports and PostgreSQL schemas, so files
    // do not see each other. The whole suite took 439 s this way on an idle 2-core machine.
    maxWorkers: 2,
    minWorkers: 1,
    // lets memory tests measure the live heap (after a collection) rather than uncollected garbage
    poolOptions: { forks: { execArgv: ['--expose-gc'] } },
    reporters: ['default'],
  },
});
