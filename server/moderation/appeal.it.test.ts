// Issue 21, "Statements of reasons and complaints", end to end against a real SMTP server and webhook receiver: the
// writer's e-mail (decision, ground, statement, what started it, a person decided, the complaint link), the
// reporter's outcome e-mail, the complaint page, the operator's uphold/reverse, a reversed removal giving the text
// back with reviews.updated, a reporter's complaint about a "keep", one complaint per decision and person.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, withAuth, type TestApp } from '../../test/harness.js';
import { startReceiver, type Receiver } from '../../test/webhook-receiver.js';
import { startSmtpSink, type ReceivedMail, type SmtpSink } from '../../test/smtp-sink.js';
import { redactUrl } from '../log.js';
import type { Webshop } from '../webshops/store.js';

let t: TestApp;
let receiver: Receiver;
let sink: SmtpSink;
let shop: Webshop;

beforeAll(async () => {
  receiver = await startReceiver();
  sink = await startSmtpSink();
  t = await startTestApp({
    SMTP_URL: sink.url,
    MAIL_FROM: 'Reviews <noreply@reviews.example>',
    WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
    SCHEDULER_POLL_MS: '200',
    TRUST_PROXY: '1',
    BASE_URL: 'http://reviews.test',
  });
  await t.services.scheduler.start();
  shop = await t.createShop({ name: 'Fiets & Co' });
  const res = await t.fetch(withAuth('/api/1.0/webhook.json', shop), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ url: `${receiver.url}/reviews.updated`, topic: 'reviews.updated' }),
  });
  receiver.secrets.set('/reviews.updated', (await res.json()).data.secret);
});
afterAll(async () => {
  await t.services.scheduler.stop();
  t.services.mailer.close();
  await t.close();
  await receiver.close();
  await sink.close();
});

let address = 0;
const anotherAddress = () => ({ 'x-forwarded-for': `198.51.100.${++address % 250}` });

const newReview = (email: string, comment = 'Slow delivery and the driver was rude to me.') =>
  t.services.reviews.create(shop.id, {
    name: 'Jan',
    email,
    rating: 1,
    language: 'en',
    comment,
    source: 'invitation',
    verified: true,
  });

async function report(reviewId: number, fields: Record<string, string>) {
  const html = await (await t.fetch(`/reviews/${reviewId}/report`)).text();
  const token = /name="token" value="([^"]+)"/.exec(html)![1]!;
  const res = await t.fetch(`/reviews/${reviewId}/report`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...anotherAddress() },
    body: new URLSearchParams({ ...fields, token }).toString(),
  });
  expect(res.status).toBe(200);
}

async function openReports(): Promise<
  { id: string; review_id: number; source: string; text: string; appeal?: { report: string; role: string } }[]
> {
  return (await (await t.admin('/admin/api/reports?status=open&limit=100')).json()).reports;
}

const decide = (id: string, json: unknown) => t.admin(`/admin/api/reports/${id}/decision`, { method: 'POST', json });

async function mailTo(to: string, count = 1): Promise<ReceivedMail> {
  await sink.waitFor((s) => s.to(to).length >= count, 60_000);
  return sink.to(to)[count - 1]!;
}

const appealPath = (mail: ReceivedMail) => {
  const url = /http:\/\/reviews\.test(\/appeal\/[A-Za-z0-9_-]+)/.exec(mail.body)?.[1];
  expect(url).toBeDefined();
  return url!;
};

const complain = (path: string, text: string) =>
  t.fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...anotherAddress() },
    body: new URLSearchParams({ text }).toString(),
  });

describe('a removal, its statement of reasons, and a complaint that reverses it', () => {
  it('e-mails the writer what was decided and why, with a link; the reversed removal restores the review', async () => {
    const review = await newReview('writer1@example.com');
    await report(review.id, { ground: 'offensive', text: 'REPORTER TEXT', email: 'reporter1@example.com' });
    const mine = (await openReports()).find((r) => r.review_id === review.id)!;
    const res = await decide(mine.id, {
      action: 'remove',
      ground: 'offensive',
      note: 'INTERNAL NOTE',
      statement: 'The review calls the driver names.',
    });
    expect(res.status).toBe(200);

    const writerMail = await mailTo('writer1@example.com');
    expect(writerMail.headers.subject).toBe('Your review of Fiets & Co was removed');
    expect(writerMail.body).toContain('It is offensive, discriminating or threatening');
    expect(writerMail.body).toContain('The review calls the driver names.');
    expect(writerMail.body).toContain('What started it: a report about the review.');
    expect(writerMail.body).toContain('A person decided this, not an automatic system.');
    expect(writerMail.raw).not.toContain('REPORTER TEXT');
    expect(writerMail.raw).not.toContain('reporter1@');
    expect(writerMail.raw).not.toContain('INTERNAL NOTE');
    const path = appealPath(writerMail);
    // 32 random bytes: 256 bits, base64url. Stored only as its digest; the log masks it.
    expect(path.slice('/appeal/'.length)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(JSON.stringify(await t.db.collection('appeal_tokens').find().toArray())).not.toContain(
      path.slice('/appeal/'.length),
    );
    expect(redactUrl(path)).toBe('/appeal/[redacted]');

    // The reporter hears the outcome, never the note or the statement, with a link of their own.
    const reporterMail = await mailTo('reporter1@example.com');
    expect(reporterMail.body).toContain('We checked the review of Fiets & Co you reported and removed it.');
    expect(reporterMail.raw).not.toContain('INTERNAL NOTE');
    expect(reporterMail.raw).not.toContain('calls the driver names');
    expect(appealPath(reporterMail)).not.toBe(path);

    // Opening the page changes nothing.
    const page = await t.fetch(path);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('The decision: the review of Fiets &amp; Co was removed.');
    expect((await openReports()).some((r) => r.source === 'appeal')).toBe(false);

    const empty = await complain(path, '   ');
    expect(empty.status).toBe(400);
    expect(await empty.text()).toContain('Write why the decision should be changed.');

    const sent = await complain(path, 'The driver really was rude; I named nobody.');
    expect(sent.status).toBe(200);
    expect(await sent.text()).toContain('Your complaint was received');
    // One complaint per decision and person.
    expect((await complain(path, 'Again')).status).toBe(409);
    expect(await (await t.fetch(path)).text()).toContain('You contested this decision already');

    const complaint = (await openReports()).find((r) => r.source === 'appeal' && r.review_id === review.id)!;
    expect(complaint).toMatchObject({ appeal: { report: mine.id, role: 'writer' } });
    // keep/remove/redact do not answer a complaint, and uphold/reverse answer nothing else.
    expect((await decide(complaint.id, { action: 'keep' })).status).toBe(422);

    const reversed = await decide(complaint.id, { action: 'reverse', note: 'misread' });
    expect(reversed.status).toBe(200);
    const restored = (await t.services.reviews.get(review.id))!;
    expect(restored).toMatchObject({
      deleted: false,
      published: true,
      email: 'writer1@example.com',
      comment: 'Slow delivery and the driver was rude to me.',
    });
    await receiver.waitFor(
      () => receiver.at('/reviews.updated').some((r) => r.eventId === `${review.id}:${restored.version}`),
      60_000,
    );
    // The kept text is gone once given back; the policy page's removal count no longer counts it.
    expect(await t.services.moderation.withheldTexts(mine.id)).toBeNull();
    const answer = await mailTo('writer1@example.com', 2);
    expect(answer.body).toContain('reversed it');

    const trail = await t.services.audit.list({ shopId: shop.id, limit: 50 });
    const actions = trail.filter((e) => e.target === `review:${review.id}`).map((e) => e.action);
    for (const step of [
      'report.created',
      'report.text_withheld',
      'report.removed',
      'report.notice_sent',
      'appeal.created',
      'review.restored',
      'appeal.reversed',
    ]) {
      expect(actions, step).toContain(step);
    }
  });

  it('a redaction reversed gives the passage back', async () => {
    const review = await newReview('writer2@example.com', 'Fine shop. My number is 0612345678.');
    await report(review.id, { ground: 'personal_data' });
    const mine = (await openReports()).find((r) => r.review_id === review.id)!;
    expect(
      (
        await decide(mine.id, {
          action: 'redact',
          ground: 'personal_data',
          passage: '0612345678',
          statement: 'A phone number is personal data.',
        })
      ).status,
    ).toBe(200);
    const mail = await mailTo('writer2@example.com');
    expect(mail.headers.subject).toBe('A passage of your review of Fiets & Co was hidden');
    expect(mail.body).toContain('A phone number is personal data.');
    expect((await complain(appealPath(mail), 'It is the shop’s number, not mine.')).status).toBe(200);
    const complaint = (await openReports()).find((r) => r.source === 'appeal' && r.review_id === review.id)!;
    expect((await decide(complaint.id, { action: 'reverse' })).status).toBe(200);
    expect((await t.services.reviews.get(review.id))!.comment).toBe('Fine shop. My number is 0612345678.');
  });
});

describe('a reporter contests a "keep"', () => {
  it('upheld: the reporter is told; reversed: the review is removed, with a statement to its writer', async () => {
    const review = await newReview('writer3@example.com', 'Buy cheap watches at spam.example now now now.');
    await report(review.id, { ground: 'spam', email: 'reporter3@example.com' });
    const mine = (await openReports()).find((r) => r.review_id === review.id)!;
    expect((await decide(mine.id, { action: 'keep', note: 'looks fine' })).status).toBe(200);

    const outcome = await mailTo('reporter3@example.com');
    expect(outcome.body).toContain('It breaks none of our rules, so it stays published.');
    expect(outcome.raw).not.toContain('looks fine');
    expect((await complain(appealPath(outcome), 'It is an advert for watches.')).status).toBe(200);
    const complaint = (await openReports()).find((r) => r.source === 'appeal' && r.review_id === review.id)!;
    expect(complaint.appeal).toMatchObject({ role: 'reporter' });

    // Reversing a keep removes the review: it needs a ground and a statement.
    expect((await decide(complaint.id, { action: 'reverse' })).status).toBe(422);
    const reversed = await decide(complaint.id, {
      action: 'reverse',
      ground: 'spam',
      statement: 'The review advertises another business.',
    });
    expect(reversed.status).toBe(200);
    expect((await t.services.reviews.get(review.id))!.deleted).toBe(true);
    expect((await mailTo('reporter3@example.com', 2)).body).toContain('reversed it');
    const writerMail = await mailTo('writer3@example.com');
    expect(writerMail.body).toContain('The review advertises another business.');
    // The writer may contest this new decision in turn.
    expect(appealPath(writerMail)).toMatch(/^\/appeal\//);
  });

  it('upheld: nothing changes and the complainant is told', async () => {
    const review = await newReview('writer4@example.com');
    await report(review.id, { ground: 'other', email: 'reporter4@example.com' });
    const mine = (await openReports()).find((r) => r.review_id === review.id)!;
    expect((await decide(mine.id, { action: 'keep' })).status).toBe(200);
    expect((await complain(appealPath(await mailTo('reporter4@example.com')), 'Please look again.')).status).toBe(200);
    const complaint = (await openReports()).find((r) => r.source === 'appeal' && r.review_id === review.id)!;
    expect((await decide(complaint.id, { action: 'uphold' })).status).toBe(200);
    expect((await mailTo('reporter4@example.com', 2)).body).toContain('The decision stands.');
    expect((await t.services.reviews.get(review.id))!.published).toBe(true);
  });
});

describe('the complaint link', () => {
  it('an unknown or malformed token is a 404 page, and the page is in the link’s language unless asked', async () => {
    expect((await t.fetch('/appeal/nope')).status).toBe(404);
    expect((await t.fetch(`/appeal/${'A'.repeat(43)}`)).status).toBe(404);
  });

  it('opens in the language of the writer’s review whatever the browser says, and in another one when asked', async () => {
    const review = await t.services.reviews.create(shop.id, {
      name: 'Jana',
      email: 'sprache@example.com',
      rating: 2,
      language: 'de',
      comment: 'Die Lieferung kam zu spät.',
      source: 'invitation',
      verified: true,
    });
    const removed = await t.admin(`/admin/api/reviews/${review.id}`, {
      method: 'DELETE',
      json: { ground: 'spam', statement: 'Werbung für einen anderen Shop.' },
    });
    expect(removed.status).toBe(204);
    const mail = await mailTo('sprache@example.com');
    expect(mail.body).toContain('Werbung für einen anderen Shop.');
    const path = appealPath(mail);
    const german = await (await t.fetch(path, { headers: { 'accept-language': 'en-GB,en;q=0.9' } })).text();
    expect(german).toContain('<html lang="de">');
    const croatian = await (await t.fetch(`${path}?lang=hr`, { headers: { 'accept-language': 'en' } })).text();
    expect(croatian).toContain('<html lang="hr">');
    // The form posts back to the language asked for.
    expect(croatian).toMatch(new RegExp(`action="${path}\\?lang=hr"`));
  });
});
