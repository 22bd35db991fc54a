// The classic endpoints' answers byte for byte, as the shop plugins read them: field order, number formats (4.5 vs
// 4.50), dates, nulls, the envelope and its content type. The fixtures in classic-bytes/ were captured on the code
// before the OpenAPI document was generated from zod schemas (issue 18) and must never change with a refactoring:
// a difference here is a change of the REST contract, not a snapshot to update.
// One deliberate change since: issue 20 appended `"photos":[…],"helpful":n` to each rating (clients ignore fields
// they do not know, compatibility.md); the ratings fixtures were updated for that alone, and with those two fields
// removed they are byte-identical to the captured ones (checked when they were updated).
// A second since: issue 21 added `"experience_date":"YYYY-MM-DD"` (or `YYYY-MM`) to each rating, right after the
// origin fields (`original_date`) and before `photos` and `helpful`, which stay last. With that one field removed the
// ratings fixtures are byte-identical to the issue 20 ones (checked when they were updated).
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Webshop } from '../server/webshops/store.js';
import { startTestApp, withAuth, type TestApp } from './harness.js';

const NOW = new Date('2026-03-01T10:00:00Z');
let t: TestApp;
let shop: Webshop;
let other: Webshop;

/** Status, content type and body exactly as sent; the shop's random API code and webhook secrets as placeholders. */
async function answer(res: Response): Promise<string> {
  const body = (await res.text())
    .replaceAll(shop.code, '{code}')
    .replace(/"secret":"[0-9a-f]+"/g, '"secret":"{secret}"');
  return `${res.status} ${res.headers.get('content-type')}\n\n${body}\n`;
}
const get = async (path: string) => answer(await t.fetch(path));
const form = async (path: string, fields: Record<string, string>) =>
  answer(await t.fetch(path, { method: 'POST', body: new URLSearchParams(fields) }));
const postJson = async (path: string, body: unknown, method = 'POST') =>
  answer(await t.fetch(path, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }));
const fixture = (name: string) => `./classic-bytes/${name}.txt`;

beforeAll(async () => {
  t = await startTestApp({}, { now: () => NOW });
  shop = await t.createShop({
    name: 'Fietsen & Co',
    url: 'https://fietsen.example/',
    logo: 'https://fietsen.example/logo.png',
    address: { street: 'Dorpsstraat', housenumber: '1a', postalcode: '1234 AB', city: 'Utrecht', country: 'NL' },
    languages: [
      { iso: 'nl', name: 'Nederlands', url: 'https://fietsen.example/', all: false, main: true },
      { iso: 'en', name: 'English', url: 'https://fietsen.example/en/', all: false, main: false },
    ],
    reply_access: true,
  });
  other = await t.createShop({ name: 'Empty' });
  const at = (day: number) => new Date(Date.UTC(2026, 1, day, 8, 5, 9));
  const product = {
    external_id: '101',
    name: 'Racefiets',
    url: 'https://fietsen.example/racefiets',
    image_url: '',
    sku: 'RF-1',
    gtin: '8712345678906',
    mpn: '',
    brand: '',
    rating: null,
    content: '',
  };
  const base = { email: 'klant@example.com', language: 'nl' as const, country: 'NL' };
  await t.services.reviews.create(shop.id, {
    ...base,
    name: 'Anna',
    rating: 5,
    ratings: { shippingtime: 5, customerservice: 4, pricequality: 0, aftersale: 0 },
    comment: 'Prima "fiets" & <snel>',
    order: '000123',
    verified: true,
    source: 'invitation',
    products: [product],
    created: at(1),
  });
  await t.services.reviews.create(shop.id, {
    ...base,
    name: 'Bob',
    language: 'en' as const,
    rating: 4,
    ratings: { shippingtime: 4, customerservice: 4, pricequality: 5, aftersale: 3 },
    verified: true,
    source: 'invitation',
    created: at(2),
  });
  await t.services.reviews.create(shop.id, {
    ...base,
    name: 'Carla',
    rating: 4,
    ratings: { shippingtime: 3, customerservice: 5, pricequality: 4, aftersale: 0 },
    comment: 'Ging goed',
    imported_from: 'other-platform',
    original_date: new Date('2025-12-24T00:00:00Z'),
    created: at(3),
  });
  const deleted = await t.services.reviews.create(shop.id, {
    ...base,
    name: 'Dirk',
    rating: 1,
    verified: true,
    source: 'invitation',
    products: [product],
    created: at(4),
  });
  await t.services.reviews.softDelete(deleted.id);
});
afterAll(() => t.close());

it('ratings.json', async () => {
  await expect(await get(withAuth('/api/1.0/ratings.json', shop))).toMatchFileSnapshot(fixture('ratings'));
  await expect(
    await get(withAuth('/api/1.0/ratings.json', shop, { language: 'nl_NL', offset: '1', limit: '1' })),
  ).toMatchFileSnapshot(fixture('ratings-page'));
  await expect(await get(withAuth('/api/1.0/ratings.json', other))).toMatchFileSnapshot(fixture('ratings-empty'));
  await expect(await get('/api/1.0/ratings.json?id=1&code=wrong')).toMatchFileSnapshot(fixture('ratings-wrong-code'));
});

it('ratings_summary.json', async () => {
  await expect(await get(withAuth('/api/1.0/ratings_summary.json', shop))).toMatchFileSnapshot(fixture('summary'));
  await expect(await get(withAuth('/api/1.0/ratings_summary.json', other))).toMatchFileSnapshot(
    fixture('summary-empty'),
  );
  await expect(await get('/api/1.0/ratings_summary.json')).toMatchFileSnapshot(fixture('summary-no-credentials'));
});

it('webshop.json', async () => {
  await expect(await get(withAuth('/api/1.0/webshop.json', shop))).toMatchFileSnapshot(fixture('webshop'));
  await expect(await get(withAuth('/api/1.0/webshop.json', other))).toMatchFileSnapshot(fixture('webshop-empty'));
});

it('product_reviews.xml', async () => {
  await expect(await get(withAuth('/api/1.0/product_reviews.xml', shop))).toMatchFileSnapshot(fixture('feed'));
  await expect(await get(withAuth('/api/1.0/product_reviews.xml', shop, { detailed: '1' }))).toMatchFileSnapshot(
    fixture('feed-detailed'),
  );
  await expect(await get('/api/1.0/product_reviews.xml?id=1&code=wrong')).toMatchFileSnapshot(fixture('feed-error'));
});

it('invitations.json: add, repeat, list', async () => {
  const path = withAuth('/api/1.0/invitations.json', shop);
  const invitation = {
    email: 'koper@example.com',
    order: '000456',
    delay: '3',
    language: 'nl_nl',
    customer_name: 'Koper',
    order_total: '42.500000',
  };
  await expect(await form(path, invitation)).toMatchFileSnapshot(fixture('invitation-add'));
  await expect(await form(path, invitation)).toMatchFileSnapshot(fixture('invitation-repeat'));
  await expect(await form(path, { order: '1' })).toMatchFileSnapshot(fixture('invitation-no-email'));
  await expect(await get(path)).toMatchFileSnapshot(fixture('invitations'));
});

it('order_permissions.json', async () => {
  await expect(
    await get(withAuth('/api/2.0/order_permissions.json', shop, { orderNumber: 'nope' })),
  ).toMatchFileSnapshot(fixture('order-permissions-unknown'));
  await expect(await get(withAuth('/api/2.0/order_permissions.json', shop))).toMatchFileSnapshot(
    fixture('order-permissions-missing'),
  );
  await expect(await get('/api/2.0/order_permissions.json?id=1&code=wrong&orderNumber=1')).toMatchFileSnapshot(
    fixture('order-permissions-wrong-code'),
  );
});

it('review_replies.json', async () => {
  const path = withAuth('/api/1.0/review_replies.json', shop);
  await expect(await postJson(path, { review_id: 2, reply: 'Dank je, Bob!' })).toMatchFileSnapshot(
    fixture('reply-added'),
  );
  await expect(await postJson(path, { review_id: 999, reply: 'x' })).toMatchFileSnapshot(fixture('reply-unknown'));
  await expect(await get(withAuth('/api/1.0/ratings.json', shop, { limit: '2' }))).toMatchFileSnapshot(
    fixture('ratings-with-reply'),
  );
});

it('webhooks', async () => {
  const subscribe = withAuth('/api/1.0/webhook.json', shop);
  await expect(
    await postJson(subscribe, { url: 'https://hooks.example/reviews', topic: 'reviews.created' }),
  ).toMatchFileSnapshot(fixture('webhook-subscribe'));
  await expect(await postJson(subscribe, { url: 'http://hooks.example/', topic: 'x' })).toMatchFileSnapshot(
    fixture('webhook-subscribe-invalid'),
  );
  await expect(await get(withAuth('/api/1.0/webhooks.json', shop))).toMatchFileSnapshot(fixture('webhooks'));
  await expect(await get(withAuth('/api/1.0/webhooks/1.json', shop))).toMatchFileSnapshot(fixture('webhook-one'));
  await expect(await get(withAuth('/api/1.0/webhooks/1/deliveries.json', shop))).toMatchFileSnapshot(
    fixture('webhook-deliveries'),
  );
  await expect(await get('/api/1.0/webhooks.json?id=1&code=wrong')).toMatchFileSnapshot(fixture('webhooks-wrong-code'));
});

it('rich_snippet', async () => {
  await expect(await get(`/webshops/rich_snippet?id=${shop.id}&lang=nl`)).toMatchFileSnapshot(fixture('snippet'));
  await expect(await get('/webshops/rich_snippet?id=999')).toMatchFileSnapshot(fixture('snippet-unknown'));
});
