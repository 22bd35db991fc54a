// Issue 21, "No suppression, provably": no setting a shop controls — dashboard, API or widget parameter — can hold,
// hide, filter or order reviews by their score. Walks every operation of the served contract (query parameters and
// request bodies, nested) for a name that speaks of the score or of filtering, holding or ordering; the few that may
// are listed below with why. A new one fails here until it is justified. The shop page's own order and filter are
// the shopper's choice (server/pages/listing.ts) and are not a setting of the shop.
import { expect, it } from 'vitest';
import { testConfig } from '../config.js';
import { openApiDocument } from './document.js';
import { WIDGET_PARAMS } from '../widget/params.js';

// biome-ignore lint/suspicious/noExplicitAny: the document is walked as plain JSON
type Json = any;
const doc: Json = JSON.parse(JSON.stringify(openApiDocument(testConfig())));

const SCORE_OR_SUPPRESSION =
  /rating|score|stars?\b|sort|order_by|filter|hide|hidden|hold|(^|_)(min|max)(_|$)|threshold/i;

/** Names that match, and why each is not a shop's way to suppress by score. */
const ALLOWED: Record<string, string> = {
  'post /api/1.0/invitations.json max_invitations_per_email': 'a limit on invitations per address, not on reviews',
  'post /embed/{id}/reviews rating': 'the writer’s own review',
  'post /embed/{id}/reviews ratings': 'the writer’s own sub-scores',
  'post /embed/{id}/experiences rating': 'the writer’s own review',
  'post /embed/{id}/experiences ratings': 'the writer’s own sub-scores',
  'post /admin/api/webshops/{id}/reviews rating': 'the operator imports a review with its score',
  'post /admin/api/webshops/{id}/reviews ratings': 'the operator imports a review with its sub-scores',
  'post /admin/api/webshops/{id}/reviews products.rating': 'the operator imports a product score',
  'patch /admin/api/reviews/{id} rating': 'the operator corrects a review (audited); shops have no such route',
  'patch /admin/api/reviews/{id} ratings': 'the operator corrects a review (audited); shops have no such route',
  'get /webshops/{id}/products/reviews.html sort':
    'the product block’s shopper choice: the chunk starts at newest and only the shopper’s own navigation sets it',
  'get /webshops/{id}/products/reviews.html stars':
    'the product block’s shopper choice: the chunk starts at every score and only the shopper’s own navigation sets it',
  'get /dashboard/api/shops/{shopId}/reviews rating':
    'the shop’s own list of its reviews, a view: it hides nothing from the public and holds nothing',
};

function names(schema: Json, path: string[] = [], seen = new Set<Json>()): string[] {
  if (!schema || typeof schema !== 'object' || seen.has(schema)) return [];
  seen.add(schema);
  if (schema.$ref) return names(doc.components.schemas[String(schema.$ref).split('/').pop()!], path, seen);
  const found: string[] = [];
  for (const [key, inner] of Object.entries(schema.properties ?? {})) {
    found.push([...path, key].join('.'), ...names(inner, [...path, key], seen));
  }
  for (const key of ['items', 'additionalProperties']) if (schema[key]) found.push(...names(schema[key], path, seen));
  for (const key of ['anyOf', 'oneOf', 'allOf']) for (const s of schema[key] ?? []) found.push(...names(s, path, seen));
  return found;
}

function inputs(): Map<string, string[]> {
  // widget_html is served outside the API contract: its parameters are its zod schema's.
  const all = new Map<string, string[]>([['get /webshops/widget_html', [...WIDGET_PARAMS]]]);
  for (const [path, methods] of Object.entries(doc.paths as Record<string, Record<string, Json>>)) {
    for (const [method, op] of Object.entries(methods)) {
      const query = ((op.parameters ?? []) as Json[]).filter((p) => p.in === 'query').map((p) => String(p.name));
      const body = Object.values((op.requestBody?.content ?? {}) as Record<string, Json>).flatMap((c) =>
        names(c.schema),
      );
      all.set(`${method} ${path}`, [...new Set([...query, ...body])]);
    }
  }
  return all;
}

it('no shop setting, API input or widget parameter orders, filters or holds reviews by score', () => {
  const found: string[] = [];
  for (const [operation, fields] of inputs()) {
    for (const field of fields) {
      // Sub-scores are listed under their parent (`ratings`): one entry for the writer's whole set.
      const name = field.replace(/^(ratings)\..*$/, '$1');
      if (SCORE_OR_SUPPRESSION.test(name)) found.push(`${operation} ${name}`);
    }
  }
  expect([...new Set(found)].sort()).toEqual(Object.keys(ALLOWED).sort());
});

it('looks where the settings are: the widget’s parameters and the shop’s settings are in the contract', () => {
  const all = inputs();
  expect(all.get('get /webshops/widget_html')).toEqual(expect.arrayContaining(['layout', 'amount', 'show']));
  expect(all.get('patch /admin/api/webshops/{id}')?.length).toBeGreaterThan(5);
  expect([...all.keys()].filter((op) => op.includes('/dashboard/api/')).length).toBeGreaterThan(10);
});
