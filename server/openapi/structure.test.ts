// The generated document is a well-formed OpenAPI 3.1 document, checked offline: the parts of the specification a
// client generator trips over first (path templates and their parameters, answers, references, tags, security).
import { expect, it } from 'vitest';
import { testConfig } from '../config.js';
import { openApiDocument } from './document.js';

// biome-ignore lint/suspicious/noExplicitAny: the document is walked as plain JSON
type Json = any;
const doc: Json = JSON.parse(JSON.stringify(openApiDocument(testConfig())));
const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);
const operations = Object.entries(doc.paths as Record<string, Record<string, Json>>).flatMap(([path, item]) =>
  Object.entries(item).map(([method, op]) => ({ path, method, op })),
);

it('has the fields OpenAPI 3.1 requires at the top', () => {
  expect(doc.openapi).toBe('3.1.0');
  expect(typeof doc.info.title).toBe('string');
  expect(typeof doc.info.version).toBe('string');
  expect(Object.keys(doc.paths).length).toBeGreaterThan(0);
});

it('uses only HTTP methods as path item keys, and paths that start with a slash', () => {
  for (const { path, method } of operations) {
    expect(path.startsWith('/'), path).toBe(true);
    expect(METHODS.has(method), `${method} ${path}`).toBe(true);
  }
});

it('declares every path template variable as a required path parameter, and no other path parameter', () => {
  for (const { path, method, op } of operations) {
    const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]).sort();
    const declared = ((op.parameters ?? []) as Json[]).filter((p) => p.in === 'path');
    expect(declared.map((p) => p.name).sort(), `${method} ${path}`).toEqual(templated);
    for (const p of declared) expect(p.required, `${method} ${path} ${p.name}`).toBe(true);
  }
});

it('gives every parameter a name, a place, a schema, and no name twice in one place', () => {
  for (const { path, method, op } of operations) {
    const seen = new Set<string>();
    for (const p of (op.parameters ?? []) as Json[]) {
      expect(['query', 'header', 'path', 'cookie'], `${method} ${path}`).toContain(p.in);
      expect(typeof p.name).toBe('string');
      expect(p.schema, `${method} ${path} ${p.name}`).toBeTypeOf('object');
      expect(seen.has(`${p.in} ${p.name}`), `${method} ${path} ${p.in} ${p.name}`).toBe(false);
      seen.add(`${p.in} ${p.name}`);
    }
  }
});

it('describes every answer by a status code, with a description and a schema per media type', () => {
  for (const { path, method, op } of operations) {
    expect(Object.keys(op.responses).length, `${method} ${path}`).toBeGreaterThan(0);
    for (const [status, answer] of Object.entries(op.responses as Record<string, Json>)) {
      expect(status, `${method} ${path}`).toMatch(/^[1-5]\d\d$/);
      expect(typeof answer.description, `${method} ${path} ${status}`).toBe('string');
      for (const media of Object.values((answer.content ?? {}) as Record<string, Json>)) {
        expect(media.schema, `${method} ${path} ${status}`).toBeTypeOf('object');
      }
    }
    for (const media of Object.values((op.requestBody?.content ?? {}) as Record<string, Json>)) {
      expect(media.schema, `${method} ${path} body`).toBeTypeOf('object');
    }
  }
});

it('resolves every $ref to a component', () => {
  const refs: string[] = [];
  const walk = (node: Json) => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === 'object') {
      if (typeof node.$ref === 'string') refs.push(node.$ref);
      Object.values(node).forEach(walk);
    }
  };
  walk(doc);
  expect(refs.length).toBeGreaterThan(0);
  for (const ref of refs) {
    const [, section, name] = /^#\/components\/(\w+)\/(.+)$/.exec(ref) ?? [];
    expect(doc.components?.[section!]?.[name!], ref).toBeDefined();
  }
});

it('uses declared tags and security schemes only', () => {
  const tags = new Set((doc.tags as Json[]).map((t) => t.name));
  const schemes = new Set(Object.keys(doc.components.securitySchemes));
  for (const { path, method, op } of operations) {
    for (const tag of op.tags) expect(tags.has(tag), `${method} ${path} ${tag}`).toBe(true);
    for (const requirement of op.security ?? []) {
      for (const name of Object.keys(requirement)) expect(schemes.has(name), `${method} ${path}`).toBe(true);
    }
  }
});

it('is plain JSON (what the route serves is what was checked)', () => {
  expect(JSON.parse(JSON.stringify(openApiDocument(testConfig())))).toEqual(doc);
});
