// At most one reply e-mail per review a day (docs/decisions.md): on the real database, the real SMTP sink and the
// classic reply endpoint. Time is the service's clock, moved by the test; the mail drain is run directly (the
// scheduler is not started), so each step sends exactly what is due at that moment.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, withAuth, type TestApp } from '../../test/harness.js';
import { startSmtpSink, type SmtpSink } from '../../test/smtp-sink.js';
import { drainReviewMails } from '../mail/reviews.js';
import { eraseCustomer } from '../customers/erase.js';
import { removeReply } from './service.js';
import type { Review } from '../reviews/model.js';
import type { Webshop } from '../webshops/store.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

let sink: SmtpSink;
let t: TestApp;
let shop: Webshop;
let clock = new Date('2031-03-01T09:00:00Z');
let writer = 0;

beforeAll(async () => {
  sink = await startSmtpSink();
  t = await startTestApp({ SMTP_URL: sink.url, MAIL_FROM: 'Reviews <noreply@reviews.example>' }, { now: () => clock });
  shop = await t.createShop({ name: 'Window Shop', reply_access: true });
});
afterAll(async () => {
  t.services.mailer.close();
  await t.close();
  await sink.close();
});
beforeEach(() => {
  clock = new Date('2031-03-01T09:00:00Z');
});

const at = (ms: number) => (clock = new Date(Date.parse('2031-03-01T09:00:00Z') + ms));

async function newReview(): Promise<Review> {
  writer++;
  return t.services.reviews.create(shop.id, {
    name: 'Wim',
    email: `writer-${writer}@example.com`,
    rating: 4,
    language: 'en',
    comment: 'Fine',
  });
}

async function reply(review: Review, text: string, notify?: boolean): Promise<void> {
  const res = await t.fetch(withAuth('/api/1.0/review_replies.json', shop), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ review_id: review.id, reply: text, ...(notify === undefined ? {} : { notify }) }),
  });
  expect(res.status).toBe(200);
}

/** Runs the mail drain once, at the clock's time, and answers the reply e-mails the writer has received so far. */
async function drained(review: Review): Promise<string[]> {
  await drainReviewMails(t.services, { touch: async () => undefined });
  return sink.to(review.email).map((m) => m.body);
}

/** The reply texts the writer received, in order (each e-mail quotes one). */
const texts = (bodies: string[], candidates: string[]) =>
  bodies.map((b) => candidates.filter((c) => b.includes(c)).join('|'));

describe('reply e-mails: at most one per review a day', () => {
  it('sends the first at once; a second within the day goes when the day is over, with its own text', async () => {
    const review = await newReview();
    await reply(review, 'First answer', true);
    expect(texts(await drained(review), ['First answer'])).toEqual(['First answer']);

    at(HOUR);
    await reply(review, 'Second answer', true);
    // Queued for the day's end (a due time in the review mail queue), not looked for by a sweep.
    const entry = await t.db
      .collection<{ _id: string; due: Date }>('review_mail')
      .findOne({ _id: `${review.id}:reply:2` });
    expect(entry?.due).toEqual(new Date(Date.parse('2031-03-01T09:00:00Z') + DAY));
    expect(await drained(review)).toHaveLength(1);
    at(DAY - 1000);
    expect(await drained(review)).toHaveLength(1);

    // The day since the first e-mail is over: the one held back goes, once.
    at(DAY + 1000);
    expect(texts(await drained(review), ['First answer', 'Second answer'])).toEqual(['First answer', 'Second answer']);
    at(DAY + 2000);
    expect(await drained(review)).toHaveLength(2);
  });

  it('sends one e-mail for several replies within the day: the latest text, even if the last did not ask to notify', async () => {
    const review = await newReview();
    await reply(review, 'Answer one', true);
    expect(await drained(review)).toHaveLength(1);

    at(2 * HOUR);
    await reply(review, 'Answer two', true);
    at(3 * HOUR);
    await reply(review, 'Answer three', true);
    expect(await drained(review)).toHaveLength(1);
    // A correction without notify does not drop the notice waiting: it goes with the corrected text.
    at(4 * HOUR);
    await reply(review, 'Answer four');
    expect(await drained(review)).toHaveLength(1);

    at(DAY + 1000);
    const all = ['Answer one', 'Answer two', 'Answer three', 'Answer four'];
    expect(texts(await drained(review), all)).toEqual(['Answer one', 'Answer four']);
    at(2 * DAY + 1000);
    expect(await drained(review)).toHaveLength(2);
  });

  it('counts the day from the last e-mail: a reply the next day goes at once, one more right after it waits', async () => {
    const review = await newReview();
    await reply(review, 'Monday answer', true);
    expect(await drained(review)).toHaveLength(1);

    at(DAY + HOUR);
    await reply(review, 'Tuesday answer', true);
    const all = ['Monday answer', 'Tuesday answer', 'Tuesday correction'];
    expect(texts(await drained(review), all)).toEqual(['Monday answer', 'Tuesday answer']);

    at(DAY + 2 * HOUR);
    await reply(review, 'Tuesday correction', true);
    expect(await drained(review)).toHaveLength(2);
    at(2 * DAY + HOUR + 1000);
    expect(texts(await drained(review), all)).toEqual(['Monday answer', 'Tuesday answer', 'Tuesday correction']);
  });

  it('sends nothing held back once the reply was removed or the writer erased', async () => {
    const removed = await newReview();
    const erased = await newReview();
    for (const review of [removed, erased]) {
      await reply(review, 'Hello', true);
      expect(await drained(review)).toHaveLength(1);
    }
    at(HOUR);
    await reply(removed, 'Held back', true);
    await reply(erased, 'Held back', true);
    expect(await drained(removed)).toHaveLength(1);
    expect(await drained(erased)).toHaveLength(1);
    expect((await removeReply(t.services, shop.id, removed.id))?.reply).toBeNull();
    await eraseCustomer(t.services, { email: erased.email, shopId: shop.id });

    at(DAY + 1000);
    expect(await drained(removed)).toHaveLength(1);
    expect(await drained(erased)).toHaveLength(1);
    expect(
      await t.db.collection('review_mail').countDocuments({ 'payload.reviewId': { $in: [removed.id, erased.id] } }),
    ).toBe(0);
  });
});
