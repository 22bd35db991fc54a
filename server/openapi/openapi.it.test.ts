import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.js';

/** Routed paths that are not an API, so not in the document; every other route must be. Each entry says why. */
const NOT_IN_DOCUMENT: { paths: RegExp; why: string }[] = [
  { paths: /^\/(review|edit|confirm|unsubscribe)\/:token$/, why: 'HTML pages opened from e-mail links' },
  { paths: /^\/reviews\/:id\/report$/, why: 'HTML page: the form to report a review' },
  { paths: /^\/appeal\/:token$/, why: 'HTML page opened from a decision e-mail: the complaint form' },
  {
    paths: /^\/edit\/:token\/(delete|renew)$/,
    why: 'HTML pages: the writer deletes their review, or asks for a new edit link',
  },
  {
    paths: /^\/webshops\/(:id|widget|widget_html)$/,
    why: "HTML pages: the shop's review page, the widget and its configurator",
  },
  { paths: /^\/webshops\/:id\/policy$/, why: "HTML page: the shop's review policy (how reviews are checked)" },
  {
    paths: /^\/webshops\/:id\/sidebar-preview$/,
    why: "HTML page: a sample page running the shop's sidebar (the dashboard's preview)",
  },
  { paths: /^\/(sidebar\.js|embed\/assets\/.*)$/, why: 'the built embed scripts and their strings' },
  {
    paths: /^\/dashboard(\/:page|\/assets\/:file)?$/,
    why: "the merchant dashboard's app: one HTML page for every page address, and its built files",
  },
  { paths: /^\/demo(\/.*)?$/, why: 'demonstration shop pages (outside production)' },
  { paths: /^\/dev\/outbox(\/.*)?$/, why: 'the e-mails written to disk in development' },
  { paths: /^\/photos\/:file$/, why: 'the photo files of published reviews' },
  { paths: /^\/reviews\/:id\/helpful$/, why: "the shop page's Helpful button (its form, and JSON for its script)" },
  { paths: /^\/webshops\/:id\/reviews\/:rid$/, why: 'HTML page: one published review (the Google feed’s review_url)' },
];

/** Koa paths (`/x/:id.json`) in OpenAPI form (`/x/{id}.json`). */
const toOpenApiPath = (path: string) => path.replace(/:([A-Za-z_]+)/g, '{$1}');

let t: TestApp;
// biome-ignore lint/suspicious/noExplicitAny: JSON Schema objects are walked freely in the assertions
type JsonSchema = any;
let doc: {
  openapi: string;
  paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: JsonSchema }> } }>>;
  components: { schemas: Record<string, JsonSchema> };
};
beforeAll(async () => {
  t = await startTestApp();
  doc = await (await t.fetch('/api/openapi.json')).json();
});
afterAll(() => t.close());

it('serves an OpenAPI 3.1 document', async () => {
  const res = await t.fetch('/api/openapi.json');
  expect(res.status).toBe(200);
  expect(doc.openapi).toBe('3.1.0');
});

it('describes every routed path and method of every router, apart from the pages and files listed above', () => {
  const missing = t.routes
    // A CORS preflight is not an operation of its own.
    .filter((r) => r.method !== 'OPTIONS')
    .filter((r) => !NOT_IN_DOCUMENT.some((entry) => entry.paths.test(r.path)))
    .filter((r) => !doc.paths[toOpenApiPath(r.path)]?.[r.method.toLowerCase()])
    .map((r) => `${r.method} ${r.path}`);
  expect(missing).toEqual([]);
});

it('describes no path or method that is not routed', () => {
  const routed = new Set(t.routes.map((r) => `${r.method.toLowerCase()} ${toOpenApiPath(r.path)}`));
  const stale = Object.entries(doc.paths)
    .flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method} ${path}`))
    .filter((entry) => !routed.has(entry));
  expect(stale).toEqual([]);
});

it('takes request bodies from the validating schemas: the import names every field the operator API accepts', async () => {
  const properties = Object.keys(doc.components.schemas.ReviewImport.properties);
  expect(properties).toEqual(
    expect.arrayContaining(['rating', 'created', 'date', 'source_verified', 'imported_from', 'products']),
  );
  // What the schema says is refused is refused: an unknown field.
  expect(doc.components.schemas.ReviewImport.additionalProperties).toBe(false);
  const shop = await t.createShop();
  const res = await t.admin(`/admin/api/webshops/${shop.id}/reviews`, {
    method: 'POST',
    json: { rating: 4, nickname: 'x' },
  });
  expect(res.status).toBe(422);
});

it('says which query parameters the erasure takes and which it requires', () => {
  const parameters = (
    doc.paths['/admin/api/customers']!.delete as unknown as { parameters: { name: string; required: boolean }[] }
  ).parameters;
  expect(parameters.map((p) => [p.name, p.required])).toEqual([
    ['email', true],
    ['webshop', false],
  ]);
});
