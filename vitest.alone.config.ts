// The tests that load the whole machine (`*.alone.test.ts`: 80 MB of request bodies, three service processes with a
// database of their own): run after the main pass, one file at a time, so that they do not slow the other test files
// down, nor each other. No test asserts on the machine's speed (issue 17): their deadlines are ten times and more
// what they need on a quiet machine. Part of `npm test`.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['**/*.alone.test.ts'],
    exclude: ['node_modules/**', 'dist/**'],
    globalSetup: ['test/global-setup.ts'],
    maxWorkers: 1,
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
});
