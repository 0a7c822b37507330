import { defineConfig } from 'vitest/config';

const INCLUDE = ['packages/*/src/**/*.test.{ts,tsx}', 'packages/*/test/**/*.test.ts'];
/**
 * Files that change what the whole process sees and cannot put it back: the process's time zone (and a
 * module reset), a browser global stubbed before a module reads it at load. Each runs in a fresh module graph.
 */
const OWN_PROCESS_STATE = ['packages/server/test/zone.test.ts', 'packages/web/src/locale/punctuation.test.ts'];

export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // Two cores, but the API suites wait on sockets, timers and the databases about a third of the time: a
    // third worker fills that (a quarter off the run) and still passed with one core kept busy by another process.
    maxWorkers: 3,
    projects: [
      {
        extends: true,
        // Every other file builds its own app, databases and servers, so the files of one worker share its
        // module graph instead of importing the whole server again each (a third of the run on 2 cores).
        test: { name: 'shared', include: INCLUDE, exclude: OWN_PROCESS_STATE, isolate: false },
      },
      { extends: true, test: { name: 'isolated', include: OWN_PROCESS_STATE, isolate: true } },
    ],
  },
});
