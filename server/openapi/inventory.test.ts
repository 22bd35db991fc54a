// What the served document names, recorded on the hand-written document before it was generated from the zod
// schemas (issue 18): every operation (method and path) with its summary, parameters, request body media types and
// answers, the components, and every description. The generated document must name all of it: an operation or a
// description missing from the generated one is a contract that got lost on the way. inventory.recorded.json was
// written by this file's inventory() on commit 44f15fd and is not to be rewritten.
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { testConfig } from '../config.js';
import { openApiDocument } from './document.js';

// biome-ignore lint/suspicious/noExplicitAny: the document is walked as plain JSON
type Json = any;
const doc: Json = JSON.parse(JSON.stringify(openApiDocument(testConfig())));
const recorded = JSON.parse(readFileSync(new URL('./inventory.recorded.json', import.meta.url), 'utf8')) as ReturnType<
  typeof inventory
>;

function operations(document: Json) {
  return Object.entries(document.paths as Record<string, Record<string, Json>>).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({
      operation: `${method} ${path}`,
      summary: op.summary as string,
      tags: op.tags as string[],
      security: op.security ?? null,
      parameters: ((op.parameters ?? []) as Json[])
        .map((p) => `${p.in} ${p.name}${p.required ? ' (required)' : ''}`)
        .sort(),
      requestBody: Object.keys(op.requestBody?.content ?? {}).sort(),
      responses: Object.fromEntries(
        Object.entries(op.responses as Record<string, Json>).map(([status, r]) => [
          status,
          `${r.description} [${Object.keys(r.content ?? {}).join(', ')}]`,
        ]),
      ),
    })),
  );
}

/** Every `description` anywhere in the document (schemas, parameters, answers), once each. */
function descriptions(node: Json, found = new Set<string>()): Set<string> {
  if (Array.isArray(node)) for (const item of node) descriptions(item, found);
  else if (node && typeof node === 'object') {
    if (typeof node.description === 'string') found.add(node.description);
    for (const value of Object.values(node)) descriptions(value, found);
  }
  return found;
}

function inventory(document: Json) {
  return {
    operations: operations(document),
    schemas: Object.keys(document.components.schemas).sort(),
    securitySchemes: Object.keys(document.components.securitySchemes).sort(),
    descriptions: [...descriptions(document)].sort(),
  };
}

/** Operations added since the recording, each by the change that built it: anything else new is a mistake. */
const ADDED_SINCE = [
  // Exports (issue 19).
  'get /admin/api/webshops/{id}/reviews/export',
  'get /admin/api/webshops/{id}/invitations/export',
  'get /dashboard/api/shops/{shopId}/reviews/export',
  'get /dashboard/api/shops/{shopId}/invitations/export',
  // Imports (issue 19).
  'post /dashboard/api/shops/{shopId}/imports',
  'get /dashboard/api/shops/{shopId}/imports',
  'get /dashboard/api/shops/{shopId}/imports/{importId}',
  'post /admin/api/webshops/{id}/imports',
  'get /admin/api/webshops/{id}/imports',
  'get /admin/api/webshops/{id}/imports/{importId}',
  'delete /admin/api/webshops/{id}/imports/{importId}',
  'post /admin/api/webshops/{id}/imports/{importId}/approve',
  'post /admin/api/webshops/{id}/imports/{importId}/held',
  // Photos held for the operator (issue 20).
  'get /admin/api/photos/held',
  'get /admin/api/photos/{id}',
  'post /admin/api/photos/{id}/decision',
  // Product surfaces (issue 22).
  'get /webshops/{id}/products/reviews.html',
  'get /webshops/{id}/products/jsonld',
  // Google's product review feed 2.4 and its key (issue 22).
  'get /webshops/{id}/feeds/google-product-reviews.xml',
  'get /admin/api/webshops/{id}/google-feed',
  'post /admin/api/webshops/{id}/google-feed/key',
  'get /dashboard/api/shops/{shopId}/google',
  'post /dashboard/api/shops/{shopId}/google/key',
  // The compliance report (issue 21).
  'get /admin/api/compliance',
  // The pop-up's photo upload (issue 20).
  'post /embed/{id}/photos',
];

it('names every operation recorded before, with the same summary, tags, security, parameters, bodies and answers', () => {
  const now = new Map(operations(doc).map((op) => [op.operation, op]));
  for (const before of recorded.operations) expect(now.get(before.operation)).toEqual(before);
  const known = new Set(recorded.operations.map((op) => op.operation));
  expect([...now.keys()].filter((op) => !known.has(op)).sort()).toEqual([...ADDED_SINCE].sort());
});

it('keeps every component recorded before', () => {
  expect(Object.keys(doc.components.schemas)).toEqual(expect.arrayContaining(recorded.schemas));
  expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(recorded.securitySchemes);
});

it('keeps every description recorded before', () => {
  const now = descriptions(doc);
  expect(recorded.descriptions.filter((d) => !now.has(d))).toEqual([]);
});

it('keeps the title, servers, tags and the envelope and signature notes', () => {
  expect({ info: doc.info, servers: doc.servers, tags: doc.tags }).toMatchSnapshot();
});
