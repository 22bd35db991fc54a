import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, withAuth, type TestApp } from '../../test/harness.js';
import type { Webshop } from '../webshops/store.js';
import type { Review } from '../reviews/model.js';
import { queuedEvents } from '../../test/webhook-events.js';

let t: TestApp;
let shop: Webshop;
let otherShop: Webshop;
let noAccessShop: Webshop;

beforeAll(async () => {
  t = await startTestApp();
  shop = await t.createShop({ name: 'Replying Shop', reply_access: true });
  otherShop = await t.createShop({ name: 'Other Shop', reply_access: true });
  noAccessShop = await t.createShop({ name: 'No Access Shop' });
});
afterAll(() => t.close());

const newReview = (s: Pick<Webshop, 'id'> = shop, comment = 'Fast delivery') =>
  t.services.reviews.create(s.id, { name: 'Jan', email: 'jan@example.com', rating: 4, language: 'en', comment });

function postReply(
  body: unknown,
  {
    as = shop,
    raw,
    contentType = 'application/json',
    query,
  }: { as?: Webshop; raw?: string; contentType?: string; query?: string } = {},
) {
  const path =
    query !== undefined ? `/api/1.0/review_replies.json?${query}` : withAuth('/api/1.0/review_replies.json', as);
  return t.fetch(path, {
    method: 'POST',
    headers: { 'content-type': contentType },
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

describe('POST /api/1.0/review_replies.json', () => {
  it('adds a public reply that ratings.json shows with its date', async () => {
    const review = await newReview();
    const res = await postReply({ review_id: review.id, reply: '  Thank you, Jan!  ' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await res.json()).toEqual({ status: 'success', message: 'Reply successfully added' });

    const ratings = await (await t.fetch(withAuth('/api/1.0/ratings.json', shop, { limit: '100' }))).json();
    const rating = ratings.ratings.find((r: { id: number }) => r.id === review.id);
    expect(rating.reply).toBe('Thank you, Jan!');
    expect(rating.reply_date).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);

    const stored = (await t.services.reviews.get(review.id))!;
    expect(stored.reply).toMatchObject({ text: 'Thank you, Jan!', notify: false, notified: null, revision: 1 });
  });

  it('replaces an earlier reply, counts the revision, stores notify and records reviews.updated', async () => {
    const review = await newReview();
    await postReply({ review_id: review.id, reply: 'First answer' });
    const first = (await t.services.reviews.get(review.id))!.reply!;
    const res = await postReply({ review_id: review.id, reply: 'Second answer', notify: true });
    expect(await res.json()).toEqual({ status: 'success', message: 'Reply successfully added' });

    const stored = (await t.services.reviews.get(review.id)) as Review;
    expect(stored.reply).toMatchObject({ text: 'Second answer', notify: true, notified: null, revision: 2 });
    expect(stored.reply!.date.getTime()).toBeGreaterThanOrEqual(first.date.getTime());
    const events = await queuedEvents(t.db, review.id);
    expect(events.map((e) => e.topic)).toEqual(['reviews.created', 'reviews.updated', 'reviews.updated']);

    const ratings = await (await t.fetch(withAuth('/api/1.0/ratings.json', shop, { limit: '100' }))).json();
    expect(ratings.ratings.find((r: { id: number }) => r.id === review.id).reply).toBe('Second answer');
  });

  it('reads the body as JSON even without a JSON Content-Type', async () => {
    const review = await newReview();
    const res = await postReply(null, {
      raw: JSON.stringify({ review_id: review.id, reply: 'Thanks' }),
      contentType: 'text/plain',
    });
    expect(res.status).toBe(200);
  });

  describe('credentials (401)', () => {
    it('refuses a wrong code', async () => {
      const res = await postReply({ review_id: 1, reply: 'x' }, { as: { ...shop, code: 'f'.repeat(32) } });
      await expectError(res, 401, 'Incorrect authentication credentials.');
    });

    it('refuses missing credentials', async () => {
      await expectError(
        await postReply({ review_id: 1, reply: 'x' }, { query: '' }),
        401,
        'Not all obligated variables are set.',
      );
      await expectError(
        await postReply({ review_id: 1, reply: 'x' }, { query: `id=${shop.id}` }),
        401,
        'Not all obligated variables are set.',
      );
    });

    it('refuses operator injection in the credentials', async () => {
      await expectError(
        await postReply({ review_id: 1, reply: 'x' }, { query: `id[$ne]=1&code=${shop.code}` }),
        401,
        /./,
      );
      await expectError(
        await postReply({ review_id: 1, reply: 'x' }, { query: `id=${shop.id}&code[$ne]=x` }),
        401,
        /./,
      );
    });

    it('refuses a shop without reply access, saying why', async () => {
      const review = await newReview(noAccessShop);
      const res = await postReply({ review_id: review.id, reply: 'Thanks' }, { as: noAccessShop });
      await expectError(res, 401, /no access to review replies/);
      expect((await t.services.reviews.get(review.id))!.reply).toBeNull();
    });
  });

  describe('bad requests (400)', () => {
    it.each([
      ['not JSON', 'review_id=1&reply=x'],
      ['truncated JSON', '{"review_id": 1, "reply": "x"'],
      ['an empty body', ''],
      ['a JSON array', '[{"review_id": 1, "reply": "x"}]'],
      ['a JSON string', '"hello"'],
      ['JSON null', 'null'],
    ])('for %s', async (_name, raw) => {
      await expectError(await postReply(null, { raw }), 400, /JSON/);
    });

    it.each([
      ['review_id as a string', { review_id: '12', reply: 'x' }, /^review_id: must be an integer/],
      ['a fractional review_id', { review_id: 1.5, reply: 'x' }, /^review_id: must be an integer/],
      ['a negative review_id', { review_id: -3, reply: 'x' }, /^review_id: must be a positive integer/],
      ['review_id as an operator object', { review_id: { $gt: 0 }, reply: 'x' }, /^review_id:/],
      ['review_id missing', { reply: 'x' }, 'review_id: is required'],
      ['reply missing', { review_id: 1 }, 'reply: is required'],
      ['reply only whitespace', { review_id: 1, reply: ' \n\t ' }, 'reply: must not be empty'],
      ['reply as an array', { review_id: 1, reply: ['x'] }, 'reply: must be a string'],
      ['reply as an object', { review_id: 1, reply: { $ne: '' } }, 'reply: must be a string'],
      ['reply too long', { review_id: 1, reply: 'x'.repeat(10_001) }, /^reply: must be at most/],
      ['notify as a string', { review_id: 1, reply: 'x', notify: 'true' }, 'notify: must be true or false'],
      ['notify as a number', { review_id: 1, reply: 'x', notify: 1 }, 'notify: must be true or false'],
      ['notify null', { review_id: 1, reply: 'x', notify: null }, 'notify: must be true or false'],
    ])('for %s', async (_name, body, message) => {
      await expectError(await postReply(body), 400, message);
    });
  });

  describe('unknown reviews (404)', () => {
    it('for a review that does not exist', async () => {
      await expectError(await postReply({ review_id: 987654321, reply: 'x' }), 404, 'Review 987654321 not found.');
    });

    it('for a deleted review', async () => {
      const review = await newReview();
      await t.services.reviews.softDelete(review.id);
      await expectError(await postReply({ review_id: review.id, reply: 'x' }), 404, `Review ${review.id} not found.`);
    });

    it("for another shop's review, which stays untouched", async () => {
      const review = await newReview(otherShop);
      await expectError(
        await postReply({ review_id: review.id, reply: 'Not mine' }),
        404,
        `Review ${review.id} not found.`,
      );
      expect((await t.services.reviews.get(review.id))!.reply).toBeNull();
    });
  });

  it('answers an unexpected failure with 500 in the envelope, so it never looks like success', async () => {
    const reviews = t.services.reviews;
    const original = reviews.get;
    reviews.get = async () => {
      throw new Error('database gone');
    };
    try {
      const res = await postReply({ review_id: 1, reply: 'x' });
      await expectError(res, 500, /^Unexpected error while processing/);
      expect(res.headers.get('x-error-id')).toBeTruthy();
    } finally {
      reviews.get = original;
    }
  });

  it('refuses a body above 1 MB with 413', async () => {
    const review = await newReview();
    const res = await postReply({ review_id: review.id, reply: 'x'.repeat(1024 * 1024) });
    await expectError(res, 413, /too large/);
  });
});
