// End-to-end tests in Debian's Chromium: e2e/server.ts starts the service (FerretDB, the real app) and a
// merchant's page on another loopback address, so the widget is framed cross-site as on a real shop.
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results',
  // The service first; then the embed's demo shop pages on 127.0.0.2, which need the service's address.
  globalSetup: ['./e2e/server.ts', './e2e/hosts/server.ts'],
  workers: 1,
  // One retry: a test that fails and then passes is reported as flaky (and looked into), rather than failing a whole
  // run on browser timing. A test that fails twice fails the run.
  retries: 1,
  timeout: 60_000,
  reporter: process.env.CI ? 'line' : 'list',
  use: {
    browserName: 'chromium',
    headless: true,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
});
