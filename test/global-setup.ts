// Starts one MongoDB-protocol server for the whole test run (MONGODB_URI when set, otherwise the same embedded
// server `npm start` uses, in a scratch directory). Each test file works in a database of its own.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startEmbeddedDatabase, type EmbeddedDatabase } from '../server/db/embedded.js';
import { ensureBrowserScriptsBuilt } from './browser-build.js';

let embedded: EmbeddedDatabase | undefined;
let dir: string | undefined;

export async function setup(project: TestProject): Promise<void> {
  ensureBrowserScriptsBuilt();
  let uri = process.env.TEST_MONGODB_URI;
  if (!uri) {
    dir = mkdtempSync(join(tmpdir(), 'review-service-test-'));
    embedded = await startEmbeddedDatabase(dir);
    uri = embedded.uri;
  }
  project.provide('mongoUri', uri);
  project.provide('databaseKind', embedded?.kind ?? 'external');
}

export async function teardown(): Promise<void> {
  await embedded?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
}

declare module 'vitest' {
  export interface ProvidedContext {
    mongoUri: string;
    databaseKind: string;
  }
}
