// Invitation e-mails and reminders queued by a version before the work queue (`invitation_queue`,
// `invitation_reminders`) move to their work queues at start and are sent by the drains with the Message-ID they
// would have had, once; an entry whose e-mail a dead old run sent is dropped, and one an old worker still holds is
// left to it.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ObjectId } from 'mongodb';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { invitationInput } from '../../test/invitations.js';
import { startSmtpSink, type SmtpSink } from '../../test/smtp-sink.js';
import { INVITATION_MAIL_QUEUE } from '../invitations/queue.js';
import { REMINDER_MAIL_QUEUE } from '../invitations/reminder-queue.js';
import { drainInvitations } from '../invitations/send.js';
import type { Invitation } from '../invitations/store.js';
import { migrateInvitationQueues } from './invitation-queues.js';

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

/** An invitation as Add invitation writes it, its work items taken off the new queues (the old code queued it). */
async function invitation(shopId: number, email: string): Promise<ObjectId> {
  const { invitations } = t.services;
  await invitations.add(shopId, invitationInput(email, `O-${email}`), { reminderDays: 7 });
  const stored = await t.db.collection<Invitation>('invitations').findOne({ email });
  await invitations.queue.dequeue([stored!._id]);
  await invitations.reminders.cancel([stored!._id]);
  return stored!._id;
}

it('moves the old entries (due time and attempts kept), drops what a dead run sent, and the drain sends each once', async () => {
  const shop = await t.createShop({ name: 'Fiets & Co' });
  const waiting = await invitation(shop.id, 'waiting@example.com');
  const sentByDeadRun = await invitation(shop.id, 'sent-already@example.com');
  const heldByOldWorker = await invitation(shop.id, 'held@example.com');
  const past = new Date(Date.now() - 60_000);
  const entry = (_id: ObjectId, attempts: number) => ({
    _id,
    due: past,
    attempts,
    lastError: attempts ? '421 busy' : null,
  });
  await t.db
    .collection('invitation_queue')
    .insertMany([entry(waiting, 2), entry(sentByDeadRun, 0), entry(heldByOldWorker, 0)] as never);
  await t.db.collection('invitation_claims').insertMany([
    { _id: sentByDeadRun, claim: 'dead-run', until: past },
    { _id: heldByOldWorker, claim: 'old-worker', until: new Date(Date.now() + 600_000) },
  ] as never);
  await t.db.collection('invitation_outcomes').insertOne({
    _id: sentByDeadRun,
    status: 'sent',
    at: past,
    messageId: `<invitation.${sentByDeadRun.toHexString()}@reviews.example>`,
    reason: null,
  } as never);
  const remindAt = new Date(Date.now() + 7 * 86_400_000);
  await t.db
    .collection('invitation_reminders')
    .insertOne({ _id: waiting, due: remindAt, attempts: 0, lastError: null } as never);

  expect(await migrateInvitationQueues(t.services)).toBe(2);
  expect(await migrateInvitationQueues(t.services)).toBe(0);
  expect((await t.db.collection('invitation_queue').find({}).toArray()).map((e) => e._id)).toEqual([heldByOldWorker]);
  expect(await t.db.collection('invitation_reminders').countDocuments()).toBe(0);
  expect(await t.db.collection(INVITATION_MAIL_QUEUE).find({}).toArray()).toEqual([
    expect.objectContaining({ _id: waiting.toHexString(), due: past, attempts: 2, lastError: '421 busy' }),
  ]);
  expect(await t.db.collection(REMINDER_MAIL_QUEUE).find({}).toArray()).toEqual([
    expect.objectContaining({ _id: waiting.toHexString(), due: remindAt, attempts: 0 }),
  ]);
  // The admin's history still shows the reminder to come, as before the move.
  expect((await t.services.invitations.reminders.entryOf(waiting))?.due).toEqual(remindAt);

  await drainInvitations(t.services, signal);
  await drainInvitations(t.services, signal);
  expect(sink.to('waiting@example.com').map((m) => m.messageId)).toEqual([
    `<invitation.${waiting.toHexString()}@reviews.example>`,
  ]);
  expect(sink.to('sent-already@example.com')).toEqual([]);
  expect(sink.to('held@example.com')).toEqual([]);
  expect((await t.services.invitations.queue.outcomeOf(waiting))?.status).toBe('sent');
});

it('moves the entry an old worker held once its claim ran out (it died), at the next start', async () => {
  await t.db.collection('invitation_claims').updateMany({}, { $set: { until: new Date(Date.now() - 1000) } });
  expect(await migrateInvitationQueues(t.services)).toBe(1);
  await drainInvitations(t.services, signal);
  expect(sink.to('held@example.com')).toHaveLength(1);
  expect(await t.db.collection('invitation_claims').countDocuments()).toBe(0);
});
