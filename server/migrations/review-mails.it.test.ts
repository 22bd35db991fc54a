// E-mails about reviews queued by a version before the work queue (`review_mail_queue`, their failed attempts in
// `mail_attempts`) move to the work queue at start, with their attempts and retry time, and are sent by the drain
// with the Message-ID they would have had, once; one the old code had given up is not sent, one an old worker still
// holds is left to it, and no attempt (they may quote an address) is left behind.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { startSmtpSink, type SmtpSink } from '../../test/smtp-sink.js';
import { REVIEW_MAIL_QUEUE } from '../mail/review-queue.js';
import { drainReviewMails } from '../mail/reviews.js';
import type { Review } from '../reviews/model.js';
import { LEGACY_MAIL_ATTEMPTS, LEGACY_REVIEW_MAIL_QUEUE, migrateReviewMails } from './review-mails.js';

let t: TestApp;
let sink: SmtpSink;
const signal = { touch: async () => undefined };

beforeAll(async () => {
  sink = await startSmtpSink();
  t = await startTestApp({ SMTP_URL: sink.url, MAIL_FROM: 'Reviews <noreply@reviews.example>' });
});
afterAll(async () => {
  t.services.mailer.close();
  await t.close();
  await sink.close();
});

it('moves the old entries with their attempts, drops the given-up ones, leaves a held one, and sends each once', async () => {
  const shop = await t.createShop({ name: 'Fiets & Co' });
  const reviews = t.db.collection<Review>('reviews');
  const reply = { text: 'Thanks', date: new Date(), notify: true, revision: 2, notified: null };
  const written = [];
  for (const email of ['retried@example.com', 'given-up@example.com', 'held@example.com']) {
    const review = await t.services.reviews.create(shop.id, { name: 'N', email, rating: 5, language: 'en' });
    await reviews.updateOne({ id: review.id }, { $set: { reply } });
    written.push(review.id);
  }
  const [retried, givenUp, held] = written as [number, number, number];
  // As the old version left them: its queue and attempts, nothing in the new queue.
  await t.db.collection(REVIEW_MAIL_QUEUE).deleteMany({});
  const past = new Date(Date.now() - 60_000);
  await t.db
    .collection(LEGACY_REVIEW_MAIL_QUEUE)
    .insertMany(
      [retried, givenUp, held].map((id) => ({ _id: `${id}:reply:2`, reviewId: id, kind: 'reply', due: past })) as never,
    );
  const messageId = (id: number) => `<review.${id}.reply.2@reviews.example>`;
  await t.db.collection(LEGACY_MAIL_ATTEMPTS).insertMany([
    {
      _id: messageId(retried),
      reviewId: retried,
      kind: 'reply',
      attempts: 2,
      nextAttempt: past,
      failed: false,
      lastError: '421 busy',
    },
    {
      _id: messageId(givenUp),
      reviewId: givenUp,
      kind: 'reply',
      attempts: 9,
      nextAttempt: past,
      failed: true,
      lastError: '550 no',
    },
    {
      _id: '<review.1.edit@reviews.example>',
      reviewId: 1,
      kind: 'edit',
      attempts: 1,
      nextAttempt: past,
      failed: true,
      lastError: '550 <x@example.com>',
    },
  ] as never);
  await t.db
    .collection('review_mail_claims')
    .insertOne({ _id: messageId(held), claim: 'old-worker', until: new Date(Date.now() + 600_000) } as never);

  expect(await migrateReviewMails(t.services)).toBe(1);
  expect(await migrateReviewMails(t.services)).toBe(0);
  expect(await t.db.collection(LEGACY_MAIL_ATTEMPTS).countDocuments()).toBe(0);
  expect((await t.db.collection(LEGACY_REVIEW_MAIL_QUEUE).find({}).toArray()).map((e) => e._id)).toEqual([
    `${held}:reply:2`,
  ]);
  expect(await t.db.collection(REVIEW_MAIL_QUEUE).find({}).toArray()).toEqual([
    expect.objectContaining({
      _id: `${retried}:reply:2`,
      attempts: 2,
      lastError: '421 busy',
      payload: { reviewId: retried, kind: 'reply' },
    }),
  ]);

  await drainReviewMails(t.services, signal);
  await drainReviewMails(t.services, signal);
  expect(sink.to('retried@example.com').map((m) => m.messageId)).toEqual([messageId(retried)]);
  expect(sink.to('given-up@example.com')).toEqual([]);
  expect(sink.to('held@example.com')).toEqual([]);
  expect((await t.services.reviews.get(retried))!.reply!.notified).toBeInstanceOf(Date);
  expect(await t.db.collection(REVIEW_MAIL_QUEUE).countDocuments()).toBe(0);

  // The old worker died: its claim runs out, and the next start moves the entry.
  await t.db.collection('review_mail_claims').deleteMany({ claim: 'old-worker' });
  expect(await migrateReviewMails(t.services)).toBe(1);
  await drainReviewMails(t.services, signal);
  expect(sink.to('held@example.com').map((m) => m.messageId)).toEqual([messageId(held)]);
});
