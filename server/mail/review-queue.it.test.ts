// The review e-mail queue on the real database and SMTP sink: what an older version left outstanding on its reviews
// (found then by a sweep over the reviews) is queued once at start-up and sent; nothing outstanding means nothing is
// read but the queue.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { startSmtpSink, type SmtpSink } from '../../test/smtp-sink.js';
import type { Webshop } from '../webshops/store.js';
import type { Review } from '../reviews/model.js';

let sink: SmtpSink;
let t: TestApp;
let shop: Webshop;

beforeAll(async () => {
  sink = await startSmtpSink();
  t = await startTestApp({ SMTP_URL: sink.url, MAIL_FROM: 'Reviews <noreply@reviews.example>' });
  shop = await t.createShop({ name: 'Queue Shop' });
});
afterAll(async () => {
  await t.services.scheduler.stop();
  t.services.mailer.close();
  await t.close();
  await sink.close();
});

it('queues once, at start-up, the e-mails an older version left outstanding on its reviews, and sends them', async () => {
  // Written as an older version did: the review alone, the e-mail found later by a sweep over the reviews.
  const base = await t.services.reviews.create(shop.id, {
    name: 'Old',
    email: 'old@example.com',
    rating: 5,
    language: 'en',
  });
  const reviews = t.db.collection<Review>('reviews');
  await reviews.updateOne(
    { id: base.id },
    { $set: { confirmToken: 'old-confirm-token', quarantine: true, published: false } },
  );
  const replied = await t.services.reviews.create(shop.id, {
    name: 'Rep',
    email: 'rep@example.com',
    rating: 4,
    language: 'en',
  });
  await reviews.updateOne(
    { id: replied.id },
    { $set: { reply: { text: 'Thanks', date: new Date(), notify: true, revision: 1, notified: null } } },
  );
  const sentLongAgo = await t.services.reviews.create(shop.id, {
    name: 'Done',
    email: 'done@example.com',
    rating: 4,
    language: 'en',
  });
  await reviews.updateOne(
    { id: sentLongAgo.id },
    { $set: { reply: { text: 'Thanks', date: new Date(), notify: true, revision: 1, notified: new Date() } } },
  );
  await t.db.collection('review_mail').deleteMany({});
  await t.db.collection('migrations').deleteOne({ _id: 'review_mail_queue.backfill' as never });

  expect(await t.services.reviewMails.migrate(t.services.reviews)).toBe(2);
  // Once: a later start reads the marker only.
  expect(await t.services.reviewMails.migrate(t.services.reviews)).toBe(0);

  await t.services.scheduler.start();
  await sink.waitFor((s) => s.to('old@example.com').length === 1 && s.to('rep@example.com').length === 1);
  expect(sink.to('old@example.com')[0]!.messageId).toBe(`<review.${base.id}.confirm@reviews.example>`);
  expect(sink.to('rep@example.com')[0]!.messageId).toBe(`<review.${replied.id}.reply.1@reviews.example>`);
  expect(sink.to('done@example.com')).toHaveLength(0);
  // Sent and recorded: the queue is empty again (waited for as long as a busy machine may need).
  const deadline = Date.now() + 60_000;
  while ((await t.db.collection('review_mail').countDocuments()) > 0 && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 50));
  expect(await t.db.collection('review_mail').countDocuments()).toBe(0);
  expect((await t.services.reviews.get(replied.id))!.reply!.notified).toBeInstanceOf(Date);
});
