// Reminders (issue 11): one e-mail `reminder_days` after the invitation e-mail when its link was not used; none after
// an unsubscribe, a review for the order, a failed first e-mail, or with the setting at 0. Real SMTP sink, real
// database, the service's clock moved forward.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, withAuth, type TestApp } from '../../test/harness.js';
import { startSmtpSink, type SmtpSink } from '../../test/smtp-sink.js';
import type { Webshop } from '../webshops/store.js';
import { drainInvitations } from './send.js';
import { drainReminders } from './reminders.js';

const DAY = 86_400_000;
const signal = { touch: async () => undefined };
let sink: SmtpSink;
let t: TestApp;
let clock = Date.now();
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

beforeAll(async () => {
  sink = await startSmtpSink({
    rejectRecipient: (address, count) => {
      if (address.startsWith('bounce')) return { code: 550, message: 'No such user here' };
      // Accepts the invitation, refuses the reminder quoting the address (as real servers do).
      if (address.startsWith('gone') && count > 1) return { code: 550, message: `5.1.1 <${address}>: mailbox closed` };
      return undefined;
    },
  });
  t = await startTestApp(
    { SMTP_URL: sink.url, MAIL_FROM: 'Reviews <noreply@reviews.example>' },
    { now: () => new Date(clock) },
  );
});

afterAll(async () => {
  t.services.mailer.close();
  await t.close();
  await sink.close();
});

/** Add invitation as a shop's plugin calls it (delay 0), then the sender's run. */
async function invite(shop: Webshop, email: string, order: string): Promise<string> {
  const res = await t.fetch(withAuth('/api/1.0/invitations.json', shop), {
    method: 'POST',
    headers: FORM,
    body: new URLSearchParams({ email, order, delay: '0', customer_name: 'Ann' }).toString(),
  });
  expect((await res.json()).status).toBe('success');
  await drainInvitations(t.services, signal);
  const [invitation] = await t.services.invitations.search(shop.id, { email, order }, 1);
  return invitation!._id.toHexString();
}

const reminders = (email: string) => sink.to(email).filter((m) => m.messageId.includes('.reminder@'));

async function history(shop: Webshop, email: string) {
  const res = await t.admin(`/admin/api/webshops/${shop.id}/invitations?email=${encodeURIComponent(email)}`);
  expect(res.status).toBe(200);
  return (await res.json()).invitations[0].history as { event: string; reason?: string; message_id?: string }[];
}

it('sends one reminder after the shop’s reminder_days (default 7), with its own Message-ID, listed in the history', async () => {
  const shop = await t.createShop({ name: 'Remind Shop' });
  const id = await invite(shop, 'ann@example.com', 'R-1');
  expect(sink.to('ann@example.com')).toHaveLength(1);

  clock += 6 * DAY;
  await drainReminders(t.services, signal);
  expect(reminders('ann@example.com')).toHaveLength(0);

  clock += DAY + 60_000;
  await drainReminders(t.services, signal);
  const [mail] = reminders('ann@example.com');
  expect(mail!.messageId).toBe(`<invitation.${id}.reminder@reviews.example>`);
  expect(mail!.headers.subject).toBe('A reminder: how was your order at Remind Shop?');
  // The invitation's own review link and unsubscribe link.
  const first = sink.to('ann@example.com')[0]!;
  const link = /\/review\/[A-Za-z0-9_-]+/.exec(first.body)![0];
  expect(mail!.body).toContain(link);
  expect(mail!.headers['list-unsubscribe']).toBe(first.headers['list-unsubscribe']);

  clock += 30 * DAY;
  await drainReminders(t.services, signal);
  expect(reminders('ann@example.com')).toHaveLength(1);
  expect((await history(shop, 'ann@example.com')).map((h) => h.event)).toEqual(['queued', 'sent', 'reminder_sent']);
  expect((await history(shop, 'ann@example.com'))[2]!.message_id).toBe(mail!.messageId);
});

it('sends no reminder once the review link was used', async () => {
  const shop = await t.createShop();
  await invite(shop, 'used@example.com', 'R-2');
  const token = /\/review\/([A-Za-z0-9_-]+)/.exec(sink.to('used@example.com')[0]!.body)![1];
  const review = await t.fetch(`/review/${token}`, { method: 'POST', headers: FORM, body: 'rating=4&name=Una' });
  expect(review.status, await review.clone().text()).toBe(200);
  clock += 8 * DAY;
  await drainReminders(t.services, signal);
  expect(reminders('used@example.com')).toHaveLength(0);
  expect((await history(shop, 'used@example.com')).at(-1)).toMatchObject({
    event: 'reminder_skipped',
    reason: 'link_used',
  });
});

it('sends no reminder after an unsubscribe', async () => {
  const shop = await t.createShop();
  await invite(shop, 'stop@example.com', 'R-3');
  const unsubscribe = sink
    .to('stop@example.com')[0]!
    .headers['list-unsubscribe']!.slice(1, -1)
    .replace(/^.*\/unsubscribe\//, '/unsubscribe/');
  const res = await t.fetch(unsubscribe, { method: 'POST', headers: FORM, body: 'List-Unsubscribe=One-Click' });
  expect(res.status).toBe(200);
  clock += 8 * DAY;
  await drainReminders(t.services, signal);
  expect(reminders('stop@example.com')).toHaveLength(0);
  expect((await history(shop, 'stop@example.com')).at(-1)).toMatchObject({
    event: 'reminder_skipped',
    reason: 'unsubscribed',
  });
});

it('sends no reminder when a review was written for the order another way', async () => {
  const shop = await t.createShop();
  await invite(shop, 'other@example.com', 'R-4');
  const imported = await t.admin(`/admin/api/webshops/${shop.id}/reviews`, {
    method: 'POST',
    json: { rating: 5, name: 'Otto', email: 'other@example.com', order: 'R-4' },
  });
  expect(imported.status, await imported.clone().text()).toBeLessThan(300);
  clock += 8 * DAY;
  await drainReminders(t.services, signal);
  expect(reminders('other@example.com')).toHaveLength(0);
  expect((await history(shop, 'other@example.com')).at(-1)).toMatchObject({
    event: 'reminder_skipped',
    reason: 'reviewed',
  });
});

it('sends no reminder when the first e-mail failed', async () => {
  const shop = await t.createShop();
  await invite(shop, 'bounce@example.com', 'R-5');
  clock += 8 * DAY;
  await drainReminders(t.services, signal);
  expect(sink.to('bounce@example.com')).toHaveLength(0);
  expect((await history(shop, 'bounce@example.com')).map((h) => h.event)).toEqual([
    'queued',
    'failed',
    'reminder_skipped',
  ]);
});

it('sends none with reminder_days 0, and none for invitations queued while it was 0 (no burst over the history)', async () => {
  const shop = await t.createShop();
  const off = await t.admin(`/admin/api/webshops/${shop.id}`, { method: 'PATCH', json: { reminder_days: 0 } });
  expect((await off.json()).reminder_days).toBe(0);
  await invite(shop, 'off@example.com', 'R-6');
  const on = await t.admin(`/admin/api/webshops/${shop.id}`, { method: 'PATCH', json: { reminder_days: 2 } });
  expect((await on.json()).reminder_days).toBe(2);
  clock += 8 * DAY;
  await drainReminders(t.services, signal);
  expect(reminders('off@example.com')).toHaveLength(0);

  const bad = await t.admin(`/admin/api/webshops/${shop.id}`, { method: 'PATCH', json: { reminder_days: 1.5 } });
  expect(bad.status).toBe(422);
});

it('records a refused reminder in the history, and erasing the customer leaves no trace of it', async () => {
  const shop = await t.createShop();
  await invite(shop, 'gone@example.com', 'R-7');
  clock += 8 * DAY;
  await drainReminders(t.services, signal);
  const last = (await history(shop, 'gone@example.com')).at(-1)!;
  expect(last.event).toBe('reminder_failed');
  expect(last.reason).toContain('gone@example.com');

  const erased = await t.admin('/admin/api/customers?email=gone%40example.com', { method: 'DELETE' });
  expect(erased.status).toBe(200);
  for (const name of ['reminder_mail', 'reminder_outcomes', 'reminder_mail_claims']) {
    const docs = await t.db.collection(name).find({}).toArray();
    expect(JSON.stringify(docs), name).not.toContain('gone@example.com');
  }
});
