// Anyone can make the service e-mail an address they type: the serviceAddReview form and an unsigned pop-up review
// send a confirmation link to it, from the shop's name and signed with our DKIM key. Such an e-mail carries no text
// the requester wrote, and one address gets at most three of them a day, counted across every shop.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, withAuth, type TestApp } from '../../test/harness.js';
import { startSmtpSink, type SmtpSink, type ReceivedMail } from '../../test/smtp-sink.js';
import type { Review } from '../reviews/model.js';
import type { Webshop } from '../webshops/store.js';

const PHISH_NAME = 'URGENT: your account is locked, log in at evil.example';
const PHISH_COMMENT = 'Your parcel is held. Pay the fee at https://evil.example/pay within 24 hours.';
/** What must not reach the recipient in any part of the message. */
const FORBIDDEN = ['URGENT', 'evil.example', 'account is locked', 'parcel is held'];

let sink: SmtpSink;
let t: TestApp;
let shopA: Webshop;
let shopB: Webshop;
let ipCounter = 0;
const freshIp = () => `10.9.${Math.floor(++ipCounter / 250)}.${(ipCounter % 250) + 1}`;

beforeAll(async () => {
  sink = await startSmtpSink();
  t = await startTestApp({ SMTP_URL: sink.url, MAIL_FROM: 'Reviews <noreply@reviews.example>', TRUST_PROXY: '1' });
  shopA = await t.createShop({ name: 'Fiets & Co', reply_access: true });
  shopB = await t.createShop({ name: 'Boek & Zo' });
  await t.services.scheduler.start();
});

afterAll(async () => {
  await t.services.scheduler.stop();
  t.services.mailer.close();
  await t.close();
  await sink.close();
});

async function post(path: string, body: unknown) {
  const res = await t.fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': freshIp() },
    body: JSON.stringify(body),
  });
  // biome-ignore lint/suspicious/noExplicitAny: the answers' JSON of several shapes, read field by field in the assertions
  return { res, json: (await res.json()) as Record<string, any> };
}

const experience = (shop: Webshop, email: string) =>
  post(`/embed/${shop.id}/experiences`, { rating: 1, name: PHISH_NAME, comment: PHISH_COMMENT, email, language: 'en' });

let orderCounter = 0;
/** An unsigned pop-up review: the order element's e-mail is the page's word, i.e. the requester's. */
async function unsignedPopupReview(shop: Webshop, email: string) {
  const order = {
    webshopId: shop.id,
    orderNumber: `U-${++orderCounter}`,
    email,
    firstName: PHISH_NAME,
    inviteDelay: 0,
  };
  const consent = await post(`/embed/${shop.id}/consent`, {
    order,
    choice: 'write_now',
    language: 'en',
    textVersion: 'v1',
  });
  expect(consent.res.status).toBe(201);
  return post(`/embed/${shop.id}/reviews`, {
    reviewToken: consent.json.reviewToken,
    rating: 1,
    name: PHISH_NAME,
    comment: PHISH_COMMENT,
  });
}

function expectNoRequesterText(mail: ReceivedMail) {
  for (const words of FORBIDDEN) {
    expect(mail.raw, words).not.toContain(words);
    expect(mail.body, words).not.toContain(words);
    expect(Object.values(mail.headers).join('\n'), words).not.toContain(words);
  }
}

describe('confirmation e-mails to an address the requester typed', () => {
  it('of the serviceAddReview form greet without the submitted name and quote nothing', async () => {
    const { res } = await experience(shopA, 'victim1@example.com');
    expect(res.status).toBe(202);
    await sink.waitFor((s) => s.to('victim1@example.com').length === 1);
    const [mail] = sink.to('victim1@example.com');
    expect(mail!.headers.subject).toBe('Please confirm your review of Fiets & Co');
    expect(mail!.body).toContain('Hello,');
    expect(mail!.body).toMatch(/\/confirm\/[A-Za-z0-9_-]{32,}/);
    expectNoRequesterText(mail!);
  });

  it('of an unsigned pop-up review greet without the name of the review or of the order element', async () => {
    const { res, json } = await unsignedPopupReview(shopA, 'victim2@example.com');
    expect(res.status).toBe(201);
    expect(json.status).toBe('pending_confirmation');
    await sink.waitFor((s) => s.to('victim2@example.com').length === 1);
    expectNoRequesterText(sink.to('victim2@example.com')[0]!);
  });

  it("carry none in the shop's reply e-mail either while the review waits for its writer", async () => {
    await experience(shopA, 'victim5@example.com');
    await sink.waitFor((s) => s.to('victim5@example.com').length === 1);
    const review = (await t.db.collection<Review>('reviews').findOne({ email: 'victim5@example.com' }))!;
    const reply = await t.fetch(withAuth('/api/1.0/review_replies.json', shopA), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ review_id: review.id, reply: 'We are sorry to hear that.', notify: true }),
    });
    expect(reply.status).toBe(200);
    await sink.waitFor((s) => s.to('victim5@example.com').length === 2);
    const mail = sink.to('victim5@example.com').find((m) => m.messageId.includes('.reply.'))!;
    expect(mail.body).toContain('We are sorry to hear that.');
    expectNoRequesterText(mail);
  });
});

describe('at most three such e-mails a day per recipient, across shops', () => {
  it('refuses the fourth with 429, Retry-After and a clear message in the embed error format', async () => {
    expect((await experience(shopA, 'victim3@example.com')).res.status).toBe(202);
    expect((await experience(shopA, 'victim3@example.com')).res.status).toBe(202);
    expect((await unsignedPopupReview(shopB, 'victim3@example.com')).res.status).toBe(201);

    const fourth = await experience(shopB, 'victim3@example.com');
    expect(fourth.res.status).toBe(429);
    expect(fourth.res.headers.get('access-control-allow-origin')).toBe('*');
    const wait = Number(fourth.res.headers.get('retry-after'));
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(86_400);
    expect(fourth.json).toEqual({
      error: { code: 'too_many_requests', message: expect.stringMatching(/e-mails to this address today/) },
    });
    // The same mailbox written otherwise, and the pop-up route, count as the same recipient.
    expect((await experience(shopA, 'Victim3+shop@EXAMPLE.com')).res.status).toBe(429);
    expect((await unsignedPopupReview(shopA, 'victim3@example.com')).res.status).toBe(429);
    // Nothing was stored for the refused ones, and other addresses are not affected.
    expect(await t.db.collection('reviews').countDocuments({ email: /^victim3/i })).toBe(3);
    expect((await experience(shopB, 'victim4@example.com')).res.status).toBe(202);

    await sink.waitFor((s) => s.to('victim3@example.com').length === 3);
    await new Promise((r) => setTimeout(r, 300));
    expect(sink.to('victim3@example.com')).toHaveLength(3);
  });

  it('gives the last place to exactly one of many concurrent requests', async () => {
    const results = await Promise.all(
      Array.from({ length: 12 }, () => t.services.recipientLimit.take('race@example.com')),
    );
    expect(results.filter(Boolean)).toHaveLength(3);
  });

  it('forgets earlier days in its cleanup and keeps today', async () => {
    const places = t.db.collection<{ _id: string; created: Date }>('mail_recipient_limits');
    await places.insertOne({ _id: `2001-01-01:${'0'.repeat(64)}:1`, created: new Date('2001-01-01') });
    const today = await places.countDocuments({ _id: { $gte: new Date().toISOString().slice(0, 10) } });
    expect(await t.services.recipientLimit.removeEarlierDays()).toBe(1);
    expect(await places.countDocuments({})).toBe(today);
  });

  it('keeps no address in its counter, so an erasure has nothing to find there', async () => {
    const places = await t.db.collection('mail_recipient_limits').find({}).toArray();
    expect(places.length).toBeGreaterThan(0);
    expect(JSON.stringify(places)).not.toMatch(/victim|example\.com/i);
  });
});
