// The answer schemas describe what the service really answers: every GET of the document that a shop with a
// review, a reply, an invitation and a webhook can call is called, and its 200 answer parsed with the schema the
// document shows (the handlers' types come from the same schemas; this checks the parts tsc cannot, such as a
// memoised JSON text or a cast).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, withAuth, type TestApp } from '../../test/harness.js';
import { signedInAgent } from '../accounts/test-session.js';
import type { Webshop } from '../webshops/store.js';
import { ENDPOINTS } from './document.js';

let t: TestApp;
let shop: Webshop;
let dashboard: Record<string, string>;
let webhookId: number;
let reviewId: number;
let importId: string;

beforeAll(async () => {
  t = await startTestApp();
  shop = await t.createShop({ reply_access: true });
  const review = await t.services.reviews.create(shop.id, {
    name: 'Anna',
    email: 'anna@example.com',
    rating: 4,
    language: 'en',
    comment: 'Fine',
  });
  reviewId = review.id;
  await t.fetch(withAuth('/api/1.0/review_replies.json', shop), {
    method: 'POST',
    body: JSON.stringify({ review_id: reviewId, reply: 'Thanks' }),
  });
  await t.fetch(withAuth('/api/1.0/invitations.json', shop), {
    method: 'POST',
    body: new URLSearchParams({ email: 'buyer@example.com', order: '1001' }),
  });
  const subscribed = await t.fetch(withAuth('/api/1.0/webhook.json', shop), {
    method: 'POST',
    body: JSON.stringify({ url: 'https://hooks.example/x', topic: 'reviews.created' }),
  });
  webhookId = (await subscribed.json()).data.webhook_id;
  const form = new FormData();
  const trustpilot =
    'Review Id,Review Created (UTC),Review Username,Review Stars,Review Title,Review Content\n' +
    't1,2026-01-02 10:00:00,Bo,5,Good,Quick delivery\n';
  form.append('file', new Blob([trustpilot]), 'trustpilot.csv');
  importId = (await (await t.admin(`/admin/api/webshops/${shop.id}/imports`, { method: 'POST', body: form })).json())
    .id;
  dashboard = (await signedInAgent(t, { email: 'owner@example.com', shopId: shop.id, role: 'owner' })).headers;
});
afterAll(() => t.close());

/** The address to call for each GET, with its ids and required query parameters filled in. */
function address(path: string): string {
  const filled = path
    .replace('{shopId}', String(shop.id))
    .replace('{webhookId}', String(webhookId))
    .replace('{lang}', 'en')
    .replace('{importId}', importId)
    .replace('/api/1.0/webhooks/{id}', `/api/1.0/webhooks/${webhookId}`)
    .replace('/admin/api/reviews/{id}', `/admin/api/reviews/${reviewId}`)
    .replace('{id}', String(shop.id));
  if (path.startsWith('/api/'))
    return withAuth(filled, shop, path.includes('order_permissions') ? { orderNumber: '1001' } : {});
  if (path === '/admin/api/webshops/{id}/invitations') return `${filled}?email=buyer@example.com`;
  if (path === '/webshops/rich_snippet') return `${filled}?id=${shop.id}`;
  if (path === '/admin/api/compliance') return `${filled}?from=2026-01-01&to=2026-12-31&webshop=${shop.id}`;
  return filled;
}

it('answers every GET with JSON its 200 schema accepts', async () => {
  const checked: string[] = [];
  for (const endpoint of ENDPOINTS) {
    const answer = endpoint.answers[200];
    if (endpoint.method !== 'get' || !answer?.schema || answer.mediaType) continue;
    if (endpoint.path === '/webshops/fetch_domain.json') continue; // needs an operator-issued token: domains tests
    const url = address(endpoint.path);
    const res = endpoint.path.startsWith('/admin/')
      ? await t.admin(url)
      : await t.fetch(url, { headers: endpoint.auth === 'dashboardSession' ? dashboard : {} });
    expect(res.status, url).toBe(200);
    const parsed = answer.schema.safeParse(await res.json());
    expect(parsed.error?.issues ?? [], url).toEqual([]);
    checked.push(endpoint.path);
  }
  expect(checked.length).toBeGreaterThanOrEqual(30);
});
