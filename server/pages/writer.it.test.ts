// The writer manages their own review through the edit link: delete it (with a confirmation step, a
// reviews.deleted event to the shop's webhook), and, once the link expired, ask for a new one by e-mail to the
// review's stored address (within the per-recipient limit).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, withAuth, type TestApp } from '../../test/harness.js';
import { startReceiver, type Receiver } from '../../test/webhook-receiver.js';
import { startSmtpSink, type SmtpSink } from '../../test/smtp-sink.js';
import { newLinkSecret } from '../links.js';
import { MAILS_PER_RECIPIENT_PER_DAY } from '../mail/recipient-limit-store.js';
import type { Webshop } from '../webshops/store.js';
import { EDIT_LINK_DAYS } from './expiry.js';

const DAY_MS = 86_400_000;
let t: TestApp;
let sink: SmtpSink;
let receiver: Receiver;
let shop: Webshop;

beforeAll(async () => {
  sink = await startSmtpSink();
  receiver = await startReceiver();
  t = await startTestApp({
    SMTP_URL: sink.url,
    MAIL_FROM: 'Reviews <noreply@reviews.example>',
    WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
    SCHEDULER_POLL_MS: '200',
  });
  await t.services.scheduler.start();
  shop = await t.createShop({ name: 'Fiets & Co' });
  const res = await t.fetch(withAuth('/api/1.0/webhook.json', shop), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ url: `${receiver.url}/deleted`, topic: 'reviews.deleted' }),
  });
  receiver.secrets.set('/deleted', (await res.json()).data.secret);
});
afterAll(async () => {
  await t.services.scheduler.stop();
  t.services.mailer.close();
  await t.close();
  await sink.close();
  await receiver.close();
});

async function writeReview(email: string, ageDays = 1) {
  const editToken = newLinkSecret();
  const review = await t.services.reviews.create(shop.id, {
    name: 'Jan',
    email,
    rating: 4,
    language: 'en',
    comment: 'Good bikes',
    created: new Date(Date.now() - ageDays * DAY_MS),
    source: 'invitation',
    verified: true,
    editToken,
  });
  return { review, editToken };
}

const post = (path: string) => t.fetch(path, { method: 'POST', redirect: 'manual' });

describe('deleting one’s own review', () => {
  it('asks first, then deletes it (reviews.deleted), and the link stops working', async () => {
    const { review, editToken } = await writeReview('jan@example.com');
    const edit = await (await t.fetch(`/edit/${editToken}`)).text();
    expect(edit).toContain(`href="/edit/${editToken}/delete"`);
    expect(edit).toContain('Delete my review');

    const confirm = await t.fetch(`/edit/${editToken}/delete`);
    expect(confirm.status).toBe(200);
    const page = await confirm.text();
    expect(page).toContain('Delete your review?');
    expect(page).toContain(`action="/edit/${editToken}/delete"`);
    // Opening the page changes nothing (mail scanners open links).
    expect((await t.services.reviews.get(review.id))!.deleted).toBe(false);

    const done = await post(`/edit/${editToken}/delete`);
    expect(done.status).toBe(200);
    expect(await done.text()).toContain('Your review was deleted');
    const stored = (await t.services.reviews.get(review.id))!;
    expect(stored).toMatchObject({ deleted: true, published: false, email: '', comment: null });
    await receiver.waitFor(() =>
      receiver.at('/deleted').some((r) => r.eventId === `${review.id}:${stored.version}` && r.verified),
    );

    expect((await t.fetch(`/edit/${editToken}`)).status).toBe(404);
    expect((await post(`/edit/${editToken}/delete`)).status).toBe(404);
    const [entry] = await t.services.audit.list({ shopId: shop.id, limit: 1 });
    expect(entry).toMatchObject({
      action: 'review.deleted_by_writer',
      actor: { kind: 'writer', id: `review:${review.id}` },
    });
  });

  it('answers an unknown or malformed link with the 404 page', async () => {
    for (const path of [`/edit/${newLinkSecret()}/delete`, '/edit/x/delete']) {
      const res = await t.fetch(path);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toContain('text/html');
    }
  });
});

describe('an expired edit link', () => {
  it('offers a new link, e-mailed to the review’s own address; the new link works and the old one no longer', async () => {
    const { review, editToken } = await writeReview('writer@example.com', EDIT_LINK_DAYS + 1);
    const expired = await t.fetch(`/edit/${editToken}`);
    expect(expired.status).toBe(410);
    const page = await expired.text();
    expect(page).toContain(`action="/edit/${editToken}/renew"`);
    expect(page).toContain('E-mail me a new link');
    expect((await t.fetch(`/edit/${editToken}/delete`)).status).toBe(410);

    const res = await post(`/edit/${editToken}/renew`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('Check your inbox');
    // Sent by the worker's outbox drain, after the answer.
    await sink.waitFor((s) => s.to('writer@example.com').length >= 1, 60_000);
    const [mail] = sink.to('writer@example.com');
    expect(mail).toBeDefined();
    const link = /\/edit\/([A-Za-z0-9_-]{16,128})/.exec(mail!.body)![1]!;
    expect(link).not.toBe(editToken);
    expect((await t.fetch(`/edit/${link}`)).status).toBe(200);
    expect((await t.fetch(`/edit/${editToken}`)).status).toBe(404);
    // The review itself did not change: no new version, no event.
    expect((await t.services.reviews.get(review.id))!.version).toBe(review.version);
  });

  it('is limited per recipient (the 3 e-mails a day to an address), whatever the links', async () => {
    const address = 'limited@example.com';
    let last: Response | undefined;
    for (let i = 0; i <= MAILS_PER_RECIPIENT_PER_DAY; i++) {
      const { editToken } = await writeReview(address, EDIT_LINK_DAYS + 5);
      last = await post(`/edit/${editToken}/renew`);
      if (i < MAILS_PER_RECIPIENT_PER_DAY) expect(last.status).toBe(200);
    }
    expect(last!.status).toBe(429);
    expect(await last!.text()).toContain('Too many e-mails to this address today');
    await sink.waitFor((s) => s.to(address).length >= MAILS_PER_RECIPIENT_PER_DAY, 60_000);
    expect(sink.to(address)).toHaveLength(MAILS_PER_RECIPIENT_PER_DAY);
  });

  it('sends nothing for a link that still works (back to the edit page)', async () => {
    const { editToken } = await writeReview('fresh@example.com');
    const res = await post(`/edit/${editToken}/renew`);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(`/edit/${editToken}`);
    expect(sink.to('fresh@example.com')).toHaveLength(0);
  });
});
