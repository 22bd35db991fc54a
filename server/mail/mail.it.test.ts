import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ObjectId } from 'mongodb';
import { startTestApp, withAuth, type TestApp } from '../../test/harness.js';
import { startSmtpSink, type SmtpSink } from '../../test/smtp-sink.js';
import { DAY_MS } from '../time.js';
import type { Webshop } from '../webshops/store.js';
import type { Invitation } from '../invitations/store.js';
import { INVITATION_MAIL_QUEUE, type InvitationOutcome } from '../invitations/queue.js';
import type { WorkItem } from '../queue/work-queue.js';
import type { Review } from '../reviews/model.js';

const BASE = 'http://127.0.0.1:1';
const INVITATIONS = '/api/1.0/invitations.json';

let sink: SmtpSink;
let t: TestApp;
let shop: Webshop;

beforeAll(async () => {
  sink = await startSmtpSink({
    rejectRecipient: (address, count) => {
      if (address.startsWith('bounce@')) return { code: 550, message: '5.1.1 No such user' };
      if (address.startsWith('grey@') && count === 1) return { code: 451, message: '4.7.1 Greylisted, try again' };
      return undefined;
    },
  });
  t = await startTestApp({
    SMTP_URL: sink.url,
    MAIL_FROM: 'Reviews <noreply@reviews.example>',
    MAIL_RETRY_SCHEDULE: '1s,1s',
    JOB_LOCK_MS: '4000',
  });
  shop = await t.createShop({
    name: 'Fiets & Co',
    reply_access: true,
    languages: [
      { iso: 'nl', name: 'Nederlands', url: 'https://shop.example/nl', all: false, main: true },
      { iso: 'de', name: 'Deutsch', url: 'https://shop.example/de', all: false, main: false },
    ],
  });
  await t.services.scheduler.start();
});

afterAll(async () => {
  await t.services.scheduler.stop();
  t.services.mailer.close();
  await t.close();
  await sink.close();
});

async function invite(body: Record<string, string>) {
  const res = await t.fetch(withAuth(INVITATIONS, shop), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(body).toString(),
  });
  return res.json();
}

const invitations = () => t.db.collection<Invitation & { _id: ObjectId }>('invitations');
const stored = async (email: string, order: string) =>
  (await invitations().findOne({ shopId: shop.id, email, order }))!;
/** How sending ended (null while it has not), and the queue entry (null once finished). */
const outcome = async (email: string, order: string) =>
  t.db.collection<InvitationOutcome>('invitation_outcomes').findOne({ _id: (await stored(email, order))._id });
const queued = async (email: string, order: string) =>
  t.services.invitations.queue.entryOf((await stored(email, order))._id);

async function listed(email: string, order: string) {
  const res = await t.fetch(withAuth(INVITATIONS, shop, { limit: '100' }));
  const body = (await res.json()) as {
    invitations: { email: string; order: string; datetimes: { sent: string | false } }[];
  };
  return body.invitations.find((i) => i.email === email && i.order === order)!;
}

/** Waits for something to happen, as long as a busy machine may need; it is never a bound on how soon. */
const waitUntil = async (check: () => Promise<boolean>, ms = 30_000) => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
};

describe('invitation e-mails', () => {
  it('sends a delay-0 invitation, in its language, with the review and unsubscribe links', async () => {
    expect(
      await invite({ email: 'jana@example.com', order: 'A-1', language: 'de-DE', customer_name: 'Jana' }),
    ).toMatchObject({
      status: 'success',
    });
    await sink.waitFor((s) => s.to('jana@example.com').length === 1, 30_000);

    const inv = await stored('jana@example.com', 'A-1');
    const [mail] = sink.to('jana@example.com');
    expect(mail!.headers.subject).toBe('Wie war Ihre Bestellung bei Fiets & Co?');
    expect(mail!.headers.from).toBe('"Fiets & Co" <noreply@reviews.example>');
    expect(mail!.messageId).toBe(`<invitation.${inv._id.toHexString()}@reviews.example>`);
    expect(mail!.headers['list-unsubscribe']).toBe(`<${BASE}/unsubscribe/${inv.unsubscribeToken}>`);
    expect(mail!.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    expect(mail!.raw).toMatch(/Content-Type: text\/plain/);
    expect(mail!.raw).toMatch(/Content-Type: text\/html/);
    expect(mail!.body).toContain('Hallo Jana,');
    expect(mail!.body).toContain(`${BASE}/review/${inv.token}`);
    expect(inv.token).toMatch(/^[A-Za-z0-9_-]{32}$/); // 192 random bits
    expect(inv.token).not.toBe(inv.unsubscribeToken);

    await waitUntil(async () => (await outcome('jana@example.com', 'A-1'))?.status === 'sent');
    expect(await outcome('jana@example.com', 'A-1')).toMatchObject({
      status: 'sent',
      messageId: mail!.messageId,
      reason: null,
    });
    await waitUntil(async () => (await queued('jana@example.com', 'A-1')) === null);
    expect((await listed('jana@example.com', 'A-1')).datetimes.sent).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });

  it("uses the shop's main language when the invitation's cannot be mapped, and greets without a name", async () => {
    await invite({ email: 'lang@example.com', order: 'L-1', language: 'cus' });
    await sink.waitFor((s) => s.to('lang@example.com').length === 1);
    const [mail] = sink.to('lang@example.com');
    expect(mail!.headers.subject).toBe('Hoe was je bestelling bij Fiets & Co?');
    expect(mail!.body).toContain('Beste klant,');
  });

  it('schedules a delayed invitation at created + delay days and does not send it before', async () => {
    await invite({ email: 'later@example.com', order: 'D-1', delay: '3' });
    const inv = await stored('later@example.com', 'D-1');
    expect(inv.scheduled.getTime() - inv.created.getTime()).toBe(3 * DAY_MS);
    expect((await queued('later@example.com', 'D-1'))!.due).toEqual(inv.scheduled);

    t.services.scheduler.trigger('mail.invitations');
    await new Promise((r) => setTimeout(r, 1000));
    expect(sink.to('later@example.com')).toHaveLength(0);
    expect((await listed('later@example.com', 'D-1')).datetimes.sent).toBe(false);

    // Three days pass: the due date moves into the past.
    const past = new Date(Date.now() - 1000);
    await t.db
      .collection<WorkItem<unknown>>(INVITATION_MAIL_QUEUE)
      .updateOne({ _id: inv._id.toHexString() }, { $set: { due: past } });
    t.services.scheduler.trigger('mail.invitations');
    await sink.waitFor((s) => s.to('later@example.com').length === 1);
    await waitUntil(async () => (await listed('later@example.com', 'D-1')).datetimes.sent !== false);
  });

  it('retries a transient SMTP failure and records a permanent one on the invitation', async () => {
    await invite({ email: 'grey@example.com', order: 'G-1' });
    await invite({ email: 'bounce@example.com', order: 'B-1' });
    await sink.waitFor((s) => s.to('grey@example.com').length === 1, 60_000);
    await waitUntil(async () => (await outcome('grey@example.com', 'G-1'))?.status === 'sent');
    // Greylisted once, accepted on the retry a second later.
    const grey = sink.to('grey@example.com');
    expect(grey).toHaveLength(1);

    await waitUntil(async () => (await outcome('bounce@example.com', 'B-1'))?.status === 'failed');
    expect((await outcome('bounce@example.com', 'B-1'))!.reason).toMatch(/^rejected: .*550.*No such user/);
    expect(sink.to('bounce@example.com')).toHaveLength(0);
    expect((await listed('bounce@example.com', 'B-1')).datetimes.sent).toBe(false);
  });
});

describe('unsubscribe', () => {
  it('asks first, then stops later invitations of this shop to the address; the list shows them as not sent', async () => {
    await invite({ email: 'Stop@example.com', order: 'U-1', language: 'en' });
    await sink.waitFor((s) => s.to('Stop@example.com').length === 1);
    const { unsubscribeToken } = await stored('Stop@example.com', 'U-1');

    const page = await t.fetch(`/unsubscribe/${unsubscribeToken}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    const html = await page.text();
    expect(html).toContain('Stop review invitations from Fiets &#38; Co to S•••@example.com?');
    expect(html).toContain('<form method="post">');
    // Looking is not unsubscribing.
    expect(await t.db.collection('suppressions').countDocuments({ shopId: shop.id })).toBe(0);

    // RFC 8058 one-click, as a mail client sends it.
    const oneClick = await t.fetch(`/unsubscribe/${unsubscribeToken}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.status).toBe(200);
    expect(await oneClick.text()).toContain('will no longer receive review invitations from Fiets &#38; Co');
    const [suppression] = await t.db.collection('suppressions').find({ shopId: shop.id }).toArray();
    expect(JSON.stringify(suppression)).not.toMatch(/stop@example/i);

    // A later invitation (the local part in another case) is recorded but never sent.
    expect(await invite({ email: 'stop@example.com', order: 'U-2' })).toMatchObject({ status: 'success' });
    await waitUntil(async () => (await outcome('stop@example.com', 'U-2'))?.status === 'suppressed');
    expect((await listed('stop@example.com', 'U-2')).datetimes.sent).toBe(false);
    expect(sink.to('stop@example.com')).toHaveLength(0);

    // Another shop may still invite the address.
    const other = await t.createShop({ name: 'Other' });
    await t.fetch(withAuth(INVITATIONS, other), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'email=stop%40example.com&order=O-1',
    });
    await sink.waitFor((s) => s.to('stop@example.com').length === 1);
  });

  it('answers an unknown or malformed link with a page, not an error body', async () => {
    for (const token of ['A'.repeat(32), 'x', '%24ne']) {
      const res = await t.fetch(`/unsubscribe/${token}`, { method: 'POST' });
      expect(res.status).toBe(404);
      expect(await res.text()).toContain('This link is not valid.');
    }
  });
});

describe('review e-mails', () => {
  async function createReview(fields: Partial<Review>) {
    return t.services.reviews.create(shop.id, {
      name: 'Piet',
      email: `piet${Math.random().toString(36).slice(2)}@example.com`,
      rating: 5,
      language: 'nl',
      comment: 'Prima fiets',
      ...fields,
    });
  }

  it('sends the edit e-mail when due, the confirmation at once, and the reply when the shop asked to notify', async () => {
    const edit = await createReview({ editToken: 'edit-token-1', editMailDue: new Date(Date.now() - 1000) });
    const notYet = await createReview({ editToken: 'edit-token-2', editMailDue: new Date(Date.now() + DAY_MS) });
    const confirm = await createReview({ confirmToken: 'confirm-token-1', language: 'fr' });
    t.services.scheduler.trigger('mail.reviews');

    await sink.waitFor((s) => s.to(edit.email).length === 1 && s.to(confirm.email).length === 1);
    const [editMail] = sink.to(edit.email);
    expect(editMail!.messageId).toBe(`<review.${edit.id}.edit@reviews.example>`);
    expect(editMail!.body).toContain(`${BASE}/edit/edit-token-1`);
    expect(editMail!.headers.subject).toBe('Je review van Fiets & Co');
    const [confirmMail] = sink.to(confirm.email);
    expect(confirmMail!.messageId).toBe(`<review.${confirm.id}.confirm@reviews.example>`);
    expect(confirmMail!.body).toContain(`${BASE}/confirm/confirm-token-1`);
    expect(confirmMail!.headers.subject).toBe('Veuillez confirmer votre avis sur Fiets & Co');

    await waitUntil(async () => (await t.services.reviews.get(confirm.id))!.confirmMailSent !== null);
    const afterEdit = (await t.services.reviews.get(edit.id))!;
    expect(afterEdit.editMailSent).toBeInstanceOf(Date);
    // Bookkeeping is not a change of the review: no new version, no webhook event.
    expect(afterEdit.version).toBe(edit.version);
    expect(sink.to(notYet.email)).toHaveLength(0);

    for (const notify of [true, false, true]) {
      const res = await t.fetch(withAuth('/api/1.0/review_replies.json', shop), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ review_id: edit.id, reply: `Dank je wel (${String(notify)})`, notify }),
      });
      expect(res.status).toBe(200);
      if (notify)
        await sink.waitFor((s) => s.to(edit.email).filter((m) => m.messageId.includes('.reply.')).length >= 1);
    }
    // Reply e-mails about one review are a day apart (reply-mail-window.it.test.ts): the third waits for the day's end.
    const dayEnd = async () => {
      const sent = (await t.services.reviews.get(edit.id))!.replyMailSent;
      const entry = await t.db
        .collection<{ _id: string; due: Date }>('review_mail')
        .findOne({ _id: `${edit.id}:reply:3` });
      return sent instanceof Date && entry?.due.getTime() === sent.getTime() + DAY_MS;
    };
    await waitUntil(dayEnd);
    const replies = sink.to(edit.email).filter((m) => m.messageId.includes('.reply.'));
    expect(replies.map((m) => m.messageId)).toEqual([`<review.${edit.id}.reply.1@reviews.example>`]);
    expect(replies[0]!.headers.subject).toBe('Fiets & Co heeft op je review gereageerd');
    expect(replies[0]!.body).toContain('Dank je wel (true)');
    expect(replies[0]!.body).toContain('Prima fiets');
  });
});

describe('a failing mail server', () => {
  it('does not slow the API down; the invitation waits for its retry', async () => {
    // A mail server that takes connections and never says a word: an API that waited for it would not answer.
    const connections = new Set<Socket>();
    const silent = createServer((socket) => void connections.add(socket));
    await new Promise<void>((ok) => silent.listen(0, '127.0.0.1', ok));
    const app = await startTestApp({
      SMTP_URL: `smtp://127.0.0.1:${(silent.address() as { port: number }).port}`,
      MAIL_RETRY_SCHEDULE: '1h',
    });
    try {
      await app.services.scheduler.start();
      const s = await app.createShop();
      const res = await app.fetch(withAuth(INVITATIONS, s), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'email=someone%40example.com&order=X-1',
      });
      expect(await res.json()).toMatchObject({ status: 'success' });
      const inv = (await app.db.collection<Invitation & { _id: ObjectId }>('invitations').findOne({ order: 'X-1' }))!;
      const queue = app.db.collection<WorkItem<unknown>>(INVITATION_MAIL_QUEUE);
      // Answered while the mail server still says nothing (no attempt has ended); now it goes away.
      expect((await queue.findOne({ _id: inv._id.toHexString() }))?.lastError ?? null).toBeNull();
      await new Promise<void>((ok) => {
        silent.close(() => ok());
        for (const socket of connections) socket.destroy();
      });
      await waitUntil(async () => (await queue.findOne({ _id: inv._id.toHexString() }))?.lastError != null);
      const entry = (await queue.findOne({ _id: inv._id.toHexString() }))!;
      expect(entry).toMatchObject({ attempts: 1, lastError: expect.stringMatching(/ECONNECTION|ECONNREFUSED/) });
      expect(entry.due.getTime() - Date.now()).toBeGreaterThan(50 * 60_000);
    } finally {
      await app.services.scheduler.stop();
      app.services.mailer.close();
      await app.close();
    }
  });
});

describe('development outbox', () => {
  it('writes e-mails as .eml files and lists them at /dev/outbox for local requests only', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'outbox-'));
    const app = await startTestApp({ DATA_DIR: dir, NODE_ENV: 'development' });
    try {
      await app.services.scheduler.start();
      const s = await app.createShop({ name: 'Müller Räder' });
      await app.fetch(withAuth(INVITATIONS, s), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'email=dev%40example.com&order=1&language=de',
      });
      await waitUntil(async () => {
        try {
          return readdirSync(join(dir, 'outbox')).length === 1;
        } catch {
          return false;
        }
      });

      const list = await app.fetch('/dev/outbox', { headers: { accept: 'application/json' } });
      const { messages } = (await list.json()) as { messages: { file: string; to: string; subject: string }[] };
      expect(messages).toEqual([
        expect.objectContaining({ to: 'dev@example.com', subject: 'Wie war Ihre Bestellung bei Müller Räder?' }),
      ]);
      const html = await (await app.fetch('/dev/outbox')).text();
      expect(html).toContain('Wie war Ihre Bestellung bei Müller Räder?');
      const eml = await app.fetch(`/dev/outbox/${messages[0]!.file}`);
      expect(eml.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(await eml.text()).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r$/m);

      // Through a proxy on this machine the visitor is not local.
      const proxied = await app.fetch('/dev/outbox', { headers: { 'x-forwarded-for': '203.0.113.9' } });
      expect(proxied.status).toBe(404);
      expect((await app.fetch('/dev/outbox/..%2F..%2Fadmin-token')).status).toBe(404);
    } finally {
      await app.services.scheduler.stop();
      app.services.mailer.close();
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is not there when SMTP is configured', async () => {
    expect((await t.fetch('/dev/outbox')).status).toBe(404);
  });
});
