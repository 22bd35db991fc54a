// HTTP-level property test of body handling: random and adversarial bodies, in every encoding and under wrong
// Content-Types, posted to the real app's endpoints that read one. Never a 5xx, never an unexpected error hidden
// in a classic 200 (X-Error-Id), always the endpoint's envelope.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuzzOptions, textOf } from './fuzz.js';
import { ADMIN_TOKEN, startTestApp, withAuth, type TestApp } from './harness.js';
import { multipartBody } from './request-context.js';
import type { Webshop } from '../server/webshops/store.js';

type Encoding = 'form' | 'json' | 'multipart' | 'raw';

interface Endpoint {
  name: string;
  path: (shop: Webshop, token: string) => string;
  headers?: Record<string, string>;
  /** Field names the endpoint reads, so that random bodies get past "missing" often enough. */
  fields: string[];
  envelope: 'classic' | 'json' | 'html';
}

const ENDPOINTS: Endpoint[] = [
  {
    name: 'Add invitation, credentials in the query',
    path: (s) => withAuth('/api/1.0/invitations.json', s),
    fields: ['email', 'order', 'delay', 'language', 'customer_name', 'order_data', 'max_invitations_per_email'],
    envelope: 'classic',
  },
  {
    name: 'Add invitation, credentials in the body',
    path: () => '/api/1.0/invitations.json',
    fields: ['id', 'code', 'email', 'order', 'order_data', 'delay'],
    envelope: 'classic',
  },
  {
    name: 'review reply',
    path: (s) => withAuth('/api/1.0/review_replies.json', s),
    fields: ['review_id', 'reply', 'id', 'code'],
    envelope: 'classic',
  },
  {
    name: 'operator: new webshop',
    path: () => '/admin/api/webshops',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    fields: ['name', 'url', 'languages', 'address'],
    envelope: 'json',
  },
  {
    name: 'operator: review import',
    path: (s) => `/admin/api/webshops/${s.id}/reviews`,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    fields: ['name', 'email', 'rating', 'ratings', 'comment', 'products', 'created'],
    envelope: 'json',
  },
  {
    name: 'embed: verify',
    path: (s) => `/embed/${s.id}/order/verify`,
    fields: ['order', 'signature'],
    envelope: 'json',
  },
  {
    name: 'embed: consent',
    path: (s) => `/embed/${s.id}/consent`,
    fields: ['order', 'signature', 'choice', 'language', 'textVersion'],
    envelope: 'json',
  },
  {
    name: 'embed: pop-up review',
    path: (s) => `/embed/${s.id}/reviews`,
    fields: ['reviewToken', 'rating', 'ratings', 'comment', 'name', 'email'],
    envelope: 'json',
  },
  {
    name: 'embed: experience',
    path: (s) => `/embed/${s.id}/experiences`,
    fields: ['rating', 'ratings', 'comment', 'name', 'email', 'country', 'website'],
    envelope: 'json',
  },
  {
    name: 'review page',
    path: (_s, token) => `/review/${token}`,
    fields: ['rating', 'comment', 'name', 'country', 'shippingtime', 'product_0_rating', 'product_0_content'],
    envelope: 'html',
  },
];

// Values of every kind a field may be sent as, plausible ones first.
const scalar = fc.oneof(
  fc.constantFrom(
    '',
    '3',
    '5',
    ' 1 ',
    'jane@example.com',
    'NL',
    'write_now',
    '{"products":[{"id":"1","name":"A"}]}',
    '\ud800',
    'a\udc00b',
    '0'.repeat(40),
  ),
  fc.string({ maxLength: 20 }),
  textOf('[]{}":,&=%+ \\0', 20),
);
const jsonValue = fc.oneof(scalar, fc.integer(), fc.boolean(), fc.constant(null), fc.jsonValue({ maxDepth: 3 }));

/** JSON values of the embed's nested fields, shaped well enough to reach the code behind the schema. */
const nested = (shopId: number): Record<string, fc.Arbitrary<unknown>> => ({
  order: fc.record(
    {
      webshopId: fc.oneof(fc.constant(shopId), fc.constant(String(shopId)), jsonValue),
      orderNumber: scalar,
      email: scalar,
      firstName: scalar,
      inviteDelay: jsonValue,
    },
    { requiredKeys: ['webshopId', 'orderNumber'] },
  ),
  signature: fc.oneof(fc.stringMatching(/^[0-9a-f]{128}$/), scalar),
  ratings: fc.dictionary(
    fc.constantFrom('shippingtime', 'customerservice', 'pricequality', 'aftersale', 'x'),
    jsonValue,
  ),
  products: fc.array(fc.dictionary(fc.constantFrom('id', 'name', 'rating', 'content', 'url'), jsonValue), {
    maxLength: 3,
  }),
  rating: fc.oneof(fc.integer({ min: 0, max: 6 }), jsonValue),
});

/** A body for an endpoint: its fields with random values (some keys bracketed or random), in one encoding. */
function body(endpoint: Endpoint, shopId: number) {
  const shaped = nested(shopId);
  const objectValue = (k: string) =>
    shaped[k] ? fc.oneof({ arbitrary: shaped[k]!, weight: 3 }, { arbitrary: jsonValue, weight: 1 }) : jsonValue;
  // Mostly all the fields the endpoint reads, sometimes some of them, and a stray one now and then.
  const keys = fc
    .tuple(
      fc.oneof(
        { arbitrary: fc.constant(endpoint.fields), weight: 2 },
        { arbitrary: fc.subarray(endpoint.fields), weight: 1 },
      ),
      fc.array(fc.string({ maxLength: 5 }), { maxLength: 1 }),
    )
    .map(([known, stray]) => [...new Set([...known, ...stray])]);
  const object = keys.chain((names) =>
    fc.tuple(...names.map(objectValue)).map((values) => Object.fromEntries(names.map((k, i) => [k, values[i]]))),
  );
  const key = fc.oneof(
    { arbitrary: fc.constantFrom(...endpoint.fields), weight: 5 },
    { arbitrary: fc.constantFrom(...endpoint.fields).map((k) => `${k}[]`), weight: 1 },
    { arbitrary: fc.constantFrom(...endpoint.fields).map((k) => `${k}[a][0]`), weight: 1 },
    { arbitrary: textOf('ab[]_', 8, 1), weight: 1 },
  );
  return fc.oneof(
    fc.array(fc.tuple(key, scalar), { maxLength: 8 }).map((pairs) => ({ encoding: 'form' as Encoding, pairs })),
    fc.array(fc.tuple(key, scalar), { maxLength: 8 }).map((pairs) => ({ encoding: 'multipart' as Encoding, pairs })),
    object.map((o) => ({ encoding: 'json' as Encoding, object: o })),
    fc
      .tuple(
        textOf('{}[]"=&%+:,\r\n-', 200),
        fc.constantFrom(
          'application/json',
          'application/x-www-form-urlencoded',
          'multipart/form-data',
          'multipart/form-data; boundary=x',
          'text/plain',
          'application/vnd.api+json',
          '',
        ),
      )
      .map(([text, type]) => ({ encoding: 'raw' as Encoding, text, type })),
  );
}

/** Lone surrogates as U+FFFD, as a browser sends them (encodeURIComponent throws on them). */
const wellFormed = (s: string) => s.replace(/\p{Cs}/gu, '\ufffd');

function encode(b: {
  encoding: Encoding;
  pairs?: [string, string][];
  object?: unknown;
  text?: string;
  type?: string;
}): { data: string | Buffer; type?: string } {
  if (b.encoding === 'form') {
    const data = b
      .pairs!.map(([k, v]) => `${encodeURIComponent(wellFormed(k))}=${encodeURIComponent(wellFormed(v))}`)
      .join('&');
    return { data, type: 'application/x-www-form-urlencoded' };
  }
  if (b.encoding === 'multipart') {
    const { body: data, type } = multipartBody(b.pairs!.map(([k, v]) => [k.replace(/["\r\n]/g, ''), v]));
    return { data, type };
  }
  if (b.encoding === 'json') return { data: JSON.stringify(b.object), type: 'application/json' };
  return { data: b.text!, type: b.type || undefined };
}

describe('bodies over HTTP', () => {
  let t: TestApp;
  let shop: Webshop;
  let token: string;
  beforeAll(async () => {
    t = await startTestApp();
    shop = await t.createShop();
    await t.fetch(withAuth('/api/1.0/invitations.json', shop), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'email=fuzz%40example.com&order=F-1&order_data=%7B%22products%22%3A%5B%7B%22id%22%3A%221%22%2C%22name%22%3A%22A%22%7D%5D%7D',
    });
    token = (await t.db.collection<{ token: string }>('invitations').findOne({ shopId: shop.id }))!.token;
  });
  afterAll(() => t.close());

  it('never answer 5xx or an unexpected error, and keep the endpoint envelope', async () => {
    const request = fc
      .nat(ENDPOINTS.length - 1)
      .chain((i) => fc.tuple(fc.constant(ENDPOINTS[i]!), body(ENDPOINTS[i]!, shop.id)));
    await fc.assert(
      fc.asyncProperty(request, async ([endpoint, b]) => {
        const { data, type } = encode(b);
        const headers: Record<string, string> = { ...endpoint.headers };
        if (type) headers['content-type'] = type;
        const res = await t.fetch(endpoint.path(shop, token), {
          method: 'POST',
          headers,
          body: typeof data === 'string' ? data : new Uint8Array(data),
        });
        const text = await res.text();
        const what = `${endpoint.name} ← ${b.encoding} ${JSON.stringify(String(data).slice(0, 200))}: ${res.status} ${text.slice(0, 200)}`;
        expect(res.status, what).toBeLessThan(500);
        expect(res.headers.get('x-error-id'), what).toBeNull();
        if (endpoint.envelope === 'html' && res.status !== 200)
          expect(res.headers.get('content-type'), what).toMatch(/^text\/html/);
        if (endpoint.envelope !== 'html') {
          const json = JSON.parse(text) as Record<string, unknown>;
          if (endpoint.envelope === 'classic') expect(['success', 'error'], what).toContain(json.status);
          else if (res.status >= 400)
            expect(typeof (json.error as { message?: unknown })?.message, what).toBe('string');
        }
      }),
      fuzzOptions(200),
    );
  }, 120_000);
});
