import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { isDocumentedApi, toOpenApiPath } from './routes.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

it('serves an OpenAPI 3.1 document', async () => {
  const res = await t.fetch('/api/openapi.json');
  expect(res.status).toBe(200);
  const doc = await res.json();
  expect(doc.openapi).toBe('3.1.0');
});

it('describes every routed API path and method', async () => {
  const doc = await (await t.fetch('/api/openapi.json')).json();
  const missing = t.routes
    .filter((r) => isDocumentedApi(r.path))
    .filter((r) => !doc.paths[toOpenApiPath(r.path)]?.[r.method.toLowerCase()])
    .map((r) => `${r.method} ${r.path}`);
  expect(missing).toEqual([]);
});
