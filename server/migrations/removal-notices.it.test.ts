// Removal notices queued by a version before the mail outbox (`removal_notices`) move to the outbox at start and are
// sent by its drain with the Message-ID they had, once; notices the old code had given up are not sent.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { startSmtpSink, type SmtpSink } from '../../test/smtp-sink.js';
import { OUTBOX_COLLECTION } from '../mail/outbox-mail.js';
import { LEGACY_NOTICES, migrateRemovalNotices } from './removal-notices.js';

let t: TestApp;
let sink: SmtpSink;

beforeAll(async () => {
  sink = await startSmtpSink();
  t = await startTestApp({ SMTP_URL: sink.url, MAIL_FROM: 'Reviews <noreply@reviews.example>' });
});
afterAll(async () => {
  await t.services.scheduler.stop();
  t.services.mailer.close();
  await t.close();
  await sink.close();
});

it('moves the old notices to the outbox (due time and attempts kept), and the drain sends each once', async () => {
  const shop = await t.createShop({ name: 'Fiets & Co' });
  const legacy = t.db.collection(LEGACY_NOTICES);
  const notice = (reviewId: number, to: string, failed: boolean) => ({
    _id: `<review.${reviewId}.removed@reviews.example>`,
    reviewId,
    shopId: shop.id,
    to,
    language: 'de',
    ground: 'offensive',
    attempts: failed ? 9 : 2,
    nextAttempt: new Date(Date.now() - 1000),
    failed,
    lastError: '421 busy',
  });
  await legacy.insertMany([
    notice(41, 'waiting@example.com', false),
    notice(42, 'given-up@example.com', true),
  ] as never);

  expect(await migrateRemovalNotices(t.services)).toBe(1);
  expect(await legacy.countDocuments()).toBe(0);
  expect(await migrateRemovalNotices(t.services)).toBe(0);
  const moved = await t.db.collection(OUTBOX_COLLECTION).find({}).toArray();
  expect(moved).toEqual([
    expect.objectContaining({
      _id: 'review.41.removed',
      attempts: 2,
      lastError: '421 busy',
      payload: expect.objectContaining({ kind: 'removal', to: 'waiting@example.com', ground: 'offensive' }),
    }),
  ]);

  await t.services.scheduler.start();
  await sink.waitFor((s) => s.to('waiting@example.com').length === 1, 60_000);
  const [mail] = sink.to('waiting@example.com');
  expect(mail!.messageId).toBe('<review.41.removed@reviews.example>');
  expect(mail!.headers.subject).toBe('Ihre Bewertung von Fiets & Co wurde entfernt');
  expect(sink.to('given-up@example.com')).toEqual([]);
});
