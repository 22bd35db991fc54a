// Issue 21, gaps of "Statements of reasons and complaints": two decisions on one review each send their e-mail (the
// outbox key is the decision's, not the review's); the operator's own DELETE with a statement tells the writer like
// the queue's removal, and without a body sends a generic statement; a removal reversed after a complaint gives the
// product feed its entry back (no `deleted`).
// A real SMTP server; the outbox drain runs only once the first test has looked at what is queued.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, withAuth, type TestApp } from '../../test/harness.js';
import { startSmtpSink, type ReceivedMail, type SmtpSink } from '../../test/smtp-sink.js';
import type { Webshop } from '../webshops/store.js';
import { decisionRemovalKey } from './jobs.js';
import { OPERATOR_REMOVAL_STATEMENT } from './notice-strings.js';

let t: TestApp;
let sink: SmtpSink;
let shop: Webshop;

beforeAll(async () => {
  sink = await startSmtpSink();
  t = await startTestApp({
    SMTP_URL: sink.url,
    MAIL_FROM: 'Reviews <noreply@reviews.example>',
    SCHEDULER_POLL_MS: '200',
    TRUST_PROXY: '1',
    BASE_URL: 'http://reviews.test',
  });
  shop = await t.createShop({ name: 'Fiets & Co' });
});
afterAll(async () => {
  await t.services.scheduler.stop();
  t.services.mailer.close();
  await t.close();
  await sink.close();
});

let address = 0;
const anotherAddress = () => ({ 'x-forwarded-for': `203.0.113.${++address % 250}` });

const product = (content: string) => ({
  external_id: 'p1',
  name: 'Bike',
  url: 'https://fiets.example/bike',
  image_url: '',
  sku: '',
  gtin: '',
  mpn: '',
  brand: '',
  rating: 4,
  content,
});

const newReview = (email: string, comment = 'The driver was rude and the bike came late.') =>
  t.services.reviews.create(shop.id, {
    name: 'Jan',
    email,
    rating: 2,
    language: 'en',
    comment,
    source: 'invitation',
    verified: true,
    products: [product('Nice bike, slow delivery.')],
  });

async function report(reviewId: number, ground: string): Promise<string> {
  const html = await (await t.fetch(`/reviews/${reviewId}/report`)).text();
  const token = /name="token" value="([^"]+)"/.exec(html)![1]!;
  const res = await t.fetch(`/reviews/${reviewId}/report`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...anotherAddress() },
    body: new URLSearchParams({ ground, token }).toString(),
  });
  expect(res.status).toBe(200);
  const open = (await (await t.admin('/admin/api/reports?status=open&limit=100')).json()).reports as {
    id: string;
    review_id: number;
    source: string;
  }[];
  return open.find((r) => r.review_id === reviewId && r.source === 'report')!.id;
}

const decide = (id: string, json: unknown) => t.admin(`/admin/api/reports/${id}/decision`, { method: 'POST', json });
const operatorDelete = (id: number, json?: unknown) =>
  t.admin(`/admin/api/reviews/${id}`, { method: 'DELETE', ...(json === undefined ? {} : { json }) });

async function mailTo(to: string, count = 1): Promise<ReceivedMail> {
  await sink.waitFor((s) => s.to(to).length >= count, 60_000);
  return sink.to(to)[count - 1]!;
}

describe('two decisions on one review', () => {
  it('a removal, a restoration, and the operator’s own removal: both e-mails are queued and sent', async () => {
    const review = await newReview('twice@example.com');
    const first = await report(review.id, 'offensive');
    expect(
      (await decide(first, { action: 'remove', ground: 'offensive', statement: 'Names the driver.' })).status,
    ).toBe(200);
    // Given back (as a reversed complaint does) while the first e-mail is still queued.
    const texts = (await t.services.moderation.withheldTexts(first))!;
    await t.services.reviews.restore(review.id, texts);
    await t.services.moderation.forgetRemoval(review.id);

    const res = await operatorDelete(review.id, { ground: 'spam', statement: 'It advertises another shop.' });
    expect(res.status).toBe(204);
    const checks = (await (await t.admin('/admin/api/reports?status=removed&limit=100')).json()).reports as {
      id: string;
      review_id: number;
      source: string;
    }[];
    const check = checks.find((r) => r.review_id === review.id && r.source === 'check')!;
    expect(check).toBeDefined();

    // One outbox entry per decision (one key per review dropped the second while the first waited).
    expect(await t.services.outbox.get(decisionRemovalKey(first))).toBeDefined();
    expect(await t.services.outbox.get(decisionRemovalKey(check.id))).toBeDefined();

    await t.services.scheduler.start();
    const one = await mailTo('twice@example.com', 1);
    const two = await mailTo('twice@example.com', 2);
    const mails = [one, two].sort((a, b) => a.body.length - b.body.length);
    expect(new Set(mails.map((m) => m.messageId)).size).toBe(2);
    const ownCheck = mails.find((m) => m.body.includes('It advertises another shop.'))!;
    expect(ownCheck.messageId).toBe(`<report.${check.id}.removed@reviews.example>`);
    expect(ownCheck.body).toContain('What started it: our own check of the review.');
    expect(ownCheck.body).toMatch(/http:\/\/reviews\.test\/appeal\/[A-Za-z0-9_-]{43}/);
    expect(mails.some((m) => m.body.includes('Names the driver.'))).toBe(true);
  });
});

describe('DELETE /admin/api/reviews/{id} with a statement', () => {
  it('validates its body: ground and statement, nothing else', async () => {
    const review = await newReview('checked@example.com');
    for (const body of [
      { statement: 'No ground.' },
      { ground: 'spam' },
      { ground: 'nonsense', statement: 'x' },
      { ground: 'spam', statement: '   ' },
      { ground: 'spam', statement: 'x', extra: 1 },
    ]) {
      const res = await operatorDelete(review.id, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect((await res.json()).error.code).toBe('validation_failed');
    }
    expect((await t.services.reviews.get(review.id))!.deleted).toBe(false);
    expect((await operatorDelete(999_999, { ground: 'spam', statement: 'x' })).status).toBe(404);
  });

  it('an imported review’s writer is told nothing; the decision is in the trail with its statement', async () => {
    const res = await t.admin(`/admin/api/webshops/${shop.id}/reviews`, {
      method: 'POST',
      json: { name: 'Imp', email: 'imported@example.com', rating: 1, comment: 'Copied from elsewhere.' },
    });
    const id = (await res.json()).id as number;
    expect((await operatorDelete(id, { ground: 'not_experience', statement: 'Not a customer.' })).status).toBe(204);
    expect((await t.services.reviews.get(id))!.deleted).toBe(true);
    const trail = await t.services.audit.list({ shopId: shop.id, limit: 50 });
    expect(trail.find((e) => e.action === 'report.removed' && e.target === `review:${id}`)).toMatchObject({
      actor: { kind: 'operator' },
      details: { ground: 'not_experience', statement: 'Not a customer.' },
    });
    // Give the drain time to have sent anything it would have (it sends nothing to this address).
    await mailTo('twice@example.com', 2);
    expect(sink.to('imported@example.com')).toEqual([]);
  });
});

describe('a removal reversed after a complaint', () => {
  it('gives the product feed its entry back: no longer deleted, the texts back', async () => {
    const review = await newReview('feed@example.com');
    const feed = () => t.fetch(withAuth('/api/1.0/product_reviews.xml', shop, { detailed: '1' })).then((r) => r.text());
    const entryOf = (xml: string) =>
      (xml.match(/<review>.*?<\/review>/gs) ?? []).find((e) => e.includes(`<review_id>${review.id}-`)) ?? '';
    const reportId = await report(review.id, 'offensive');
    expect((await decide(reportId, { action: 'remove', ground: 'offensive', statement: 'Rude words.' })).status).toBe(
      200,
    );
    expect(entryOf(await feed())).toMatch(/<deleted>1<\/deleted>/);

    const mail = await mailTo('feed@example.com');
    const path = /http:\/\/reviews\.test(\/appeal\/[A-Za-z0-9_-]+)/.exec(mail.body)![1]!;
    const complained = await t.fetch(path, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...anotherAddress() },
      body: new URLSearchParams({ text: 'Nothing rude in it.' }).toString(),
    });
    expect(complained.status).toBe(200);
    const open = (await (await t.admin('/admin/api/reports?status=open&limit=100')).json()).reports as {
      id: string;
      review_id: number;
      source: string;
    }[];
    const complaint = open.find((r) => r.review_id === review.id && r.source === 'appeal')!;
    expect((await decide(complaint.id, { action: 'reverse' })).status).toBe(200);

    const xml = await feed();
    const entry = entryOf(xml);
    expect(entry).toContain('<deleted/>');
    expect(entry).toContain('Nice bike, slow delivery.');
    expect(xml).not.toContain(`<deleted_reviews><review_id>${review.id}-`);
  });
});

describe('DELETE /admin/api/reviews/{id} without a body (the spec’s contract)', () => {
  it('answers as the spec says, and is still a decision: the writer gets a generic statement and can contest it', async () => {
    const review = await t.services.reviews.create(shop.id, {
      name: 'Els',
      email: 'bare@example.com',
      rating: 1,
      language: 'nl',
      comment: 'Niets aan, nooit meer.',
      source: 'invitation',
      verified: true,
    });
    const res = await operatorDelete(review.id);
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    expect((await t.services.reviews.get(review.id))!.deleted).toBe(true);

    // A `check` entry, decided: ground `other`, the generic statement in the writer's language, the internal note.
    const removed = (await (await t.admin('/admin/api/reports?status=removed&limit=100')).json()).reports as {
      id: string;
      review_id: number;
      source: string;
      ground: string;
      decision: { statement: string; note: string; ground: string };
    }[];
    const check = removed.find((r) => r.review_id === review.id && r.source === 'check')!;
    expect(check).toMatchObject({
      ground: 'other',
      decision: {
        ground: 'other',
        statement: OPERATOR_REMOVAL_STATEMENT.nl,
        note: expect.stringContaining('without a body'),
      },
    });
    // The trail has the decision and, as before, the plain deletion.
    const trail = await t.services.audit.list({ shopId: shop.id, limit: 100 });
    expect(trail.find((e) => e.action === 'report.removed' && e.target === `review:${review.id}`)).toMatchObject({
      actor: { kind: 'operator' },
      details: { ground: 'other', statement: OPERATOR_REMOVAL_STATEMENT.nl },
    });
    expect(trail.find((e) => e.action === 'review.deleted' && e.target === `review:${review.id}`)).toMatchObject({
      details: { rating: 1, published: { from: true, to: false } },
    });

    // The writer's e-mail, received by the SMTP server: the statement, what started it, and the complaint link.
    const mail = await mailTo('bare@example.com');
    expect(mail.messageId).toBe(`<report.${check.id}.removed@reviews.example>`);
    expect(mail.body.replace(/\s+/g, ' ')).toContain(OPERATOR_REMOVAL_STATEMENT.nl);
    const path = /http:\/\/reviews\.test(\/appeal\/[A-Za-z0-9_-]{43})/.exec(mail.body)![1]!;
    const complained = await t.fetch(path, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...anotherAddress() },
      body: new URLSearchParams({ text: 'Dit was echt mijn ervaring.' }).toString(),
    });
    expect(complained.status).toBe(200);
    const open = (await (await t.admin('/admin/api/reports?status=open&limit=100')).json()).reports as {
      id: string;
      review_id: number;
      source: string;
    }[];
    const complaint = open.find((r) => r.review_id === review.id && r.source === 'appeal')!;
    expect((await decide(complaint.id, { action: 'reverse' })).status).toBe(200);
    expect(await t.services.reviews.get(review.id)).toMatchObject({
      deleted: false,
      comment: 'Niets aan, nooit meer.',
    });

    // Deleting a deleted or unknown review is still a 404, and adds no decision.
    expect((await operatorDelete(999_998)).status).toBe(404);
  });
});
