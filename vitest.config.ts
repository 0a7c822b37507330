import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/*/src/**/*.test.{ts,tsx}', 'packages/*/test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // Two cores, but the API suites wait on sockets, timers and the databases about a third of the time: a
    // third worker fills that (a quarter off the run) and still passed with one core kept busy by another process.
    maxWorkers: 3,
  },
});
