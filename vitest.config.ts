import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['server/**/*.test.ts', 'test/**/*.test.ts', 'embed/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    // Two cores: integration files share one FerretDB, each in its own database.
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
