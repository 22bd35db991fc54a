// The tests that measure time (`*.alone.test.ts`): run after the main pass, one file at a time, so that no other test
// file competes with them for the machine's two cores. Part of `npm test`.
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
