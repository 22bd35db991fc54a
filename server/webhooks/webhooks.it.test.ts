import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, withAuth, type TestApp } from '../../test/harness.js';
import type { Webshop } from '../webshops/store.js';

let t: TestApp;
let shop: Webshop;

beforeAll(async () => {
  t = await startTestApp();
  shop = await t.createShop({ name: 'Hooked Shop' });
});
afterAll(() => t.close());

function subscribe(
  body: unknown,
  { as = shop, raw, query }: { as?: Pick<Webshop, 'id' | 'code'>; raw?: string; query?: string } = {},
) {
  const path = query !== undefined ? `/api/1.0/webhook.json?${query}` : withAuth('/api/1.0/webhook.json', as);
  return t.fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: raw ?? JSON.stringify(body),
  });
}

async function expectError(res: Response, status: number, message: RegExp | string) {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
  const body = await res.json();
  expect(body).toEqual({ status: 'error', message: expect.any(String) });
  if (typeof message === 'string') expect(body.message).toBe(message);
  else expect(body.message).toMatch(message);
}

describe('POST /api/1.0/webhook.json', () => {
  it('creates an active subscription with an integer id and a 32-byte hex secret', async () => {
    const res = await subscribe({ url: 'https://hooks.example/reviews', topic: 'reviews.created' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const body = await res.json();
    expect(body).toEqual({
      status: 'success',
      message: 'Webhook subscription created',
      data: {
        webhook_id: expect.any(Number),
        url: 'https://hooks.example/reviews',
        topic: 'reviews.created',
        secret: expect.any(String),
      },
    });
    expect(Number.isInteger(body.data.webhook_id)).toBe(true);
    expect(body.data.secret).toMatch(/^[0-9a-f]{64}$/);

    const active = await t.services.webhooks.active(shop.id, 'reviews.created');
    expect(active.find((s) => s.id === body.data.webhook_id)).toMatchObject({ is_active: true, disabled_reason: null });
  });

  it('stores is_active false, which the scheduler does not see as active', async () => {
    const s = await t.createShop();
    const res = await subscribe(
      { url: 'https://hooks.example/x', topic: 'reviews.deleted', is_active: false },
      { as: s },
    );
    const { data } = await res.json();
    expect(await t.services.webhooks.active(s.id, 'reviews.deleted')).toEqual([]);
    const list = await (await t.fetch(withAuth('/api/1.0/webhooks.json', s))).json();
    expect(list).toEqual([
      {
        id: data.webhook_id,
        topic: 'reviews.deleted',
        url: 'https://hooks.example/x',
        secret: data.secret,
        is_active: false,
      },
    ]);
  });

  it('accepts every topic', async () => {
    for (const topic of ['reviews.created', 'reviews.updated', 'reviews.deleted']) {
      expect((await (await subscribe({ url: 'https://hooks.example/all', topic })).json()).status).toBe('success');
    }
  });

  describe('bad requests (400)', () => {
    it.each([
      ['not JSON', 'url=https://x.example&topic=reviews.created', /JSON/],
      ['an empty body', '', /JSON/],
      ['a JSON array', '[]', /JSON object/],
    ])('for %s', async (_name, raw, message) => {
      await expectError(await subscribe(null, { raw }), 400, message);
    });

    it.each([
      ['url missing', { topic: 'reviews.created' }, 'url: is required'],
      ['a relative url', { url: '/hook', topic: 'reviews.created' }, /^url: must be an absolute http/],
      ['an ftp url', { url: 'ftp://hooks.example/x', topic: 'reviews.created' }, /^url: must be an absolute http/],
      ['a javascript url', { url: 'javascript:alert(1)', topic: 'reviews.created' }, /^url: must be an absolute http/],
      [
        'a url too long',
        { url: `https://hooks.example/${'a'.repeat(2000)}`, topic: 'reviews.created' },
        /^url: must be at most 2000/,
      ],
      ['url as an array', { url: ['https://hooks.example'], topic: 'reviews.created' }, 'url: must be a string'],
      ['url as an operator object', { url: { $ne: '' }, topic: 'reviews.created' }, 'url: must be a string'],
      ['topic missing', { url: 'https://hooks.example' }, 'topic: is required'],
      [
        'an unknown topic',
        { url: 'https://hooks.example', topic: 'orders.created' },
        /^topic: must be one of reviews.created/,
      ],
      ['topic as an array', { url: 'https://hooks.example', topic: ['reviews.created'] }, /^topic: must be one of/],
      [
        'is_active as a string',
        { url: 'https://hooks.example', topic: 'reviews.created', is_active: 'false' },
        'is_active: must be true or false',
      ],
    ])('for %s', async (_name, body, message) => {
      await expectError(await subscribe(body), 400, message);
    });
  });

  describe('credentials (401)', () => {
    it.each([
      ['a wrong code', () => `id=${shop.id}&code=${'f'.repeat(32)}`],
      ['an unknown shop', () => `id=999999&code=${shop.code}`],
      ['no credentials', () => ''],
      ['no code', () => `id=${shop.id}`],
      ['injection in id', () => `id[$ne]=1&code=${shop.code}`],
      ['injection in code', () => `id=${shop.id}&code[$ne]=x`],
    ])('answers Unauthorized for %s', async (_name, query) => {
      const res = await subscribe({ url: 'https://hooks.example', topic: 'reviews.created' }, { query: query() });
      await expectError(res, 401, 'Unauthorized');
    });
  });

  // The default of WEBHOOK_MAX_PER_SHOP. cap.it.test.ts sets it lower, for concurrent subscribes and a shop that
  // has more than the limit.
  const CAP = 100;
  const full = `A webshop can have at most ${CAP} webhook subscriptions: delete one (DELETE /api/1.0/webhooks/{id}.json) before adding another.`;

  it('limits a shop to 100 subscriptions by default, switched-off ones included; deleting one frees its place', async () => {
    const s = await t.createShop();
    const ids: number[] = [];
    for (let i = 0; i < CAP; i++) {
      const res = await subscribe(
        { url: `https://hooks.example/${i}`, topic: 'reviews.created', is_active: i % 2 === 0 },
        { as: s },
      );
      expect(res.status).toBe(200);
      ids.push((await res.json()).data.webhook_id);
    }
    await expectError(
      await subscribe({ url: 'https://hooks.example/one-more', topic: 'reviews.created' }, { as: s }),
      400,
      full,
    );
    expect(await t.services.webhooks.countForShop(s.id)).toBe(CAP);
    // Another shop is not affected.
    expect(
      (
        await subscribe(
          { url: 'https://hooks.example/elsewhere', topic: 'reviews.created' },
          { as: await t.createShop() },
        )
      ).status,
    ).toBe(200);

    const removed = await t.fetch(withAuth(`/api/1.0/webhooks/${ids[0]}.json`, s), { method: 'DELETE' });
    expect(removed.status).toBe(200);
    expect(
      (await subscribe({ url: 'https://hooks.example/one-more', topic: 'reviews.created' }, { as: s })).status,
    ).toBe(200);
    await expectError(
      await subscribe({ url: 'https://hooks.example/two-more', topic: 'reviews.created' }, { as: s }),
      400,
      full,
    );
  }, 120_000);
});

describe('GET /api/1.0/webhooks.json', () => {
  let listed: Webshop;
  const urls = (page: { url: string }[]) => page.map((w) => w.url);
  /** `https://hooks.example/{to}` … `/{from}`: newest first. */
  const newestFirst = (to: number, from: number) =>
    Array.from({ length: to - from + 1 }, (_, i) => `https://hooks.example/${to - i}`);

  beforeAll(async () => {
    // Subscribed as a shop does, one after the other: creation order is the numbering order.
    listed = await t.createShop({ name: 'Listed Shop' });
    for (let i = 1; i <= 45; i++) {
      const res = await subscribe({ url: `https://hooks.example/${i}`, topic: 'reviews.updated' }, { as: listed });
      expect(res.status).toBe(200);
    }
  }, 120_000);

  it('returns 20 per page, newest first, with X-Total', async () => {
    const res = await t.fetch(withAuth('/api/1.0/webhooks.json', listed));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('x-total')).toBe('45');
    const page1 = await res.json();
    expect(urls(page1)).toEqual(newestFirst(45, 26));
    expect(Object.keys(page1[0]).sort()).toEqual(['id', 'is_active', 'secret', 'topic', 'url']);
    expect(page1[0]).toMatchObject({
      topic: 'reviews.updated',
      is_active: true,
      secret: expect.stringMatching(/^[0-9a-f]{64}$/),
    });

    const res2 = await t.fetch(withAuth('/api/1.0/webhooks.json', listed, { page: '2' }));
    expect(res2.headers.get('x-total')).toBe('45');
    expect(urls(await res2.json())).toEqual(newestFirst(25, 6));

    const res3 = await t.fetch(withAuth('/api/1.0/webhooks.json', listed, { page: '3' }));
    expect(res3.headers.get('x-total')).toBe('45');
    expect(urls(await res3.json())).toEqual(newestFirst(5, 1));
  });

  it('answers an empty array past the last page, and for a shop without subscriptions', async () => {
    const res = await t.fetch(withAuth('/api/1.0/webhooks.json', listed, { page: '4' }));
    expect(await res.json()).toEqual([]);
    expect(res.headers.get('x-total')).toBe('45');
    const empty = await t.fetch(withAuth('/api/1.0/webhooks.json', await t.createShop()));
    expect(await empty.json()).toEqual([]);
    expect(empty.headers.get('x-total')).toBe('0');
  });

  it('clamps page below 1 to the first page and refuses a non-number with 400', async () => {
    const zero = await (await t.fetch(withAuth('/api/1.0/webhooks.json', listed, { page: '0' }))).json();
    expect(zero[0].url).toBe('https://hooks.example/45');
    await expectError(await t.fetch(withAuth('/api/1.0/webhooks.json', listed, { page: 'two' })), 400, /page/);
    await expectError(
      await t.fetch(`${withAuth('/api/1.0/webhooks.json', listed)}&page[$gt]=1&page=1&page=2`),
      400,
      /page/,
    );
  });

  it("never lists another shop's subscriptions", async () => {
    const list = await (await t.fetch(withAuth('/api/1.0/webhooks.json', shop))).json();
    expect(list.length).toBeGreaterThan(0);
    const ids = new Set((await t.services.webhooks.page(listed.id, 0, 100)).items.map((s) => s.id));
    expect(list.some((w: { id: number }) => ids.has(w.id))).toBe(false);
  });

  it.each([
    ['a wrong code', () => `id=${shop.id}&code=${'f'.repeat(32)}`],
    ['no credentials', () => ''],
    ['injection in id', () => `id[$ne]=1&code=${shop.code}`],
  ])('answers 401 Unauthorized for %s', async (_name, query) => {
    const res = await t.fetch(`/api/1.0/webhooks.json?${query()}`);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ status: 'error', message: 'Unauthorized' });
  });
});
