// The sender and the moment between Add invitation's two writes: the queue entry is written first and the invitation
// right after, by another process perhaps, while a sender may be running. Seen with two API processes and a worker
// under load: the sender took such entries for leftovers and dropped them, and those e-mails were never sent.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ObjectId } from 'mongodb';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { invitationInput } from '../../test/invitations.js';
import { startSmtpSink, type SmtpSink } from '../../test/smtp-sink.js';
import type { Webshop } from '../webshops/store.js';
import { drainInvitations } from './send.js';
import type { Invitation } from './store.js';
import { dedupeKey } from './rules.js';

let sink: SmtpSink;
let t: TestApp;
let shop: Webshop;
const signal = { touch: async () => undefined };

beforeAll(async () => {
  sink = await startSmtpSink();
  t = await startTestApp({ SMTP_URL: sink.url, MAIL_FROM: 'Reviews <noreply@reviews.example>' });
  shop = await t.createShop({ name: 'Race Shop' });
});

afterAll(async () => {
  t.services.mailer.close();
  await t.close();
  await sink.close();
});

/** The invitation add() writes second, for a queue entry written first. */
async function writeInvitation(_id: ObjectId, email: string, order: string): Promise<void> {
  const { invitations } = t.services;
  await invitations.add(shop.id, invitationInput(`template-${order}@example.com`, `T-${order}`));
  const stored = t.db.collection<Invitation & { _id: ObjectId }>('invitations');
  const template = (await stored.findOne({ order: `T-${order}` }))!;
  await stored.deleteOne({ _id: template._id });
  await invitations.queue.dequeue([template._id]);
  await stored.insertOne({ ...template, _id, email, order, dedupe: dedupeKey(email, order) });
}

it('keeps a queue entry whose invitation is still being written, and sends it once it is', async () => {
  const { invitations } = t.services;
  const _id = new ObjectId();
  await invitations.queue.enqueue(_id, new Date());

  await drainInvitations(t.services, signal);
  expect(await invitations.queue.entryOf(_id)).not.toBeNull();
  expect(await invitations.queue.outcomeOf(_id)).toBeNull();

  await writeInvitation(_id, 'late@example.com', 'L-1');
  await drainInvitations(t.services, signal);
  expect(sink.to('late@example.com')).toHaveLength(1);
  expect((await invitations.queue.outcomeOf(_id))?.status).toBe('sent');
  expect(await invitations.queue.entryOf(_id)).toBeNull();
});

it('drops a queue entry that stayed without an invitation (a crash between the two writes)', async () => {
  const { invitations } = t.services;
  const _id = ObjectId.createFromTime(Math.floor((Date.now() - 5 * 60_000) / 1000));
  await invitations.queue.enqueue(_id, new Date());
  const before = sink.messageIds.length;
  await drainInvitations(t.services, signal);
  expect(await invitations.queue.entryOf(_id)).toBeNull();
  expect(sink.messageIds.length).toBe(before);
});
