import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['server/**/*.test.ts', 'test/**/*.test.ts', 'embed/**/*.test.ts', 'dashboard/**/*.test.ts'],
    // Tests that load the whole machine run in a pass of their own: vitest.alone.config.ts.
    exclude: [...configDefaults.exclude, '**/*.alone.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    // Two cores: integration files share one FerretDB, each in its own database.
    maxWorkers: 2,
    // What ends a test that hangs, not a bound on how fast anything is: a test that needs seconds on a quiet machine
    // may need a minute on a busy one.
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
});
