// Reporting and moderation end to end: the public report form, the operator's queue and decisions, the review
// events they cause (a real webhook receiver), the writer's e-mail (a real SMTP server), and the audit trail.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decisionRemovalKey, removalNoticeKey } from './jobs.js';
import { queueMail } from '../mail/outbox-mail.js';
import { startTestApp, withAuth, type TestApp } from '../../test/harness.js';
import { startReceiver, type Receiver } from '../../test/webhook-receiver.js';
import { startSmtpSink, type SmtpSink } from '../../test/smtp-sink.js';
import type { Webshop } from '../webshops/store.js';
import { REPORTS_PER_ADDRESS_PER_HOUR, REPORTS_PER_REVIEW_PER_HOUR } from './routes.js';

let t: TestApp;
let receiver: Receiver;
let sink: SmtpSink;
let shop: Webshop;

beforeAll(async () => {
  receiver = await startReceiver();
  sink = await startSmtpSink({
    rejectRecipient: (address) =>
      address.startsWith('bounce@') ? { code: 550, message: `5.1.1 <${address}>: no such user` } : undefined,
  });
  t = await startTestApp({
    SMTP_URL: sink.url,
    MAIL_FROM: 'Reviews <noreply@reviews.example>',
    WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
    SCHEDULER_POLL_MS: '200',
    // Each report comes from an address of its own (X-Forwarded-For), apart from the test of the limits.
    TRUST_PROXY: '1',
  });
  await t.services.scheduler.start();
  shop = await t.createShop({ name: 'Fiets & Co' });
  for (const topic of ['reviews.updated', 'reviews.deleted']) {
    const res = await t.fetch(withAuth('/api/1.0/webhook.json', shop), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: `${receiver.url}/${topic}`, topic }),
    });
    receiver.secrets.set(`/${topic}`, (await res.json()).data.secret);
  }
});
afterAll(async () => {
  await t.services.scheduler.stop();
  t.services.mailer.close();
  await t.close();
  await receiver.close();
  await sink.close();
});

const newReview = (fields: Partial<{ email: string; comment: string; language: 'en' | 'de' | 'nl' }> = {}) =>
  t.services.reviews.create(shop.id, {
    name: 'Jan',
    email: 'jan@example.com',
    rating: 2,
    language: 'en',
    comment: 'Slow delivery. Call me on 0612345678.',
    source: 'invitation',
    verified: true,
    ...fields,
  });

/** The hidden token of the report form the page shows. */
async function formToken(app: TestApp, reviewId: number): Promise<string> {
  const html = await (await app.fetch(`/reviews/${reviewId}/report`)).text();
  return /name="token" value="([^"]+)"/.exec(html)![1]!;
}

let nextAddress = 0;
const anotherAddress = () => ({ 'x-forwarded-for': `192.0.2.${++nextAddress % 250}` });

async function report(
  reviewId: number,
  fields: Record<string, string>,
  { app = t, headers = anotherAddress() }: { app?: TestApp; headers?: Record<string, string> } = {},
) {
  const token = fields.token ?? (await formToken(app, reviewId));
  return app.fetch(`/reviews/${reviewId}/report`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams({ ...fields, token }).toString(),
  });
}

async function openReports(): Promise<
  { id: string; review_id: number; ground: string; text: string; email: string | null; status: string }[]
> {
  const res = await t.admin('/admin/api/reports?status=open&limit=100');
  expect(res.status).toBe(200);
  return (await res.json()).reports;
}

const decide = (id: string, json: unknown) => t.admin(`/admin/api/reports/${id}/decision`, { method: 'POST', json });

describe('the report form', () => {
  it('shows the review and a form with the six grounds, in the browser’s language, without cookies or scripts', async () => {
    const review = await newReview();
    const res = await t.fetch(`/reviews/${review.id}/report`, { headers: { 'accept-language': 'de-DE,de;q=0.9' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('set-cookie')).toBeNull();
    expect(res.headers.get('content-security-policy')).toContain("script-src 'none'");
    expect(res.headers.get('cache-control')).toBe('no-store');
    const html = await res.text();
    expect(html).toContain('<html lang="de"');
    expect(html).toContain('Bewertung melden');
    expect(html).toContain('Slow delivery.');
    for (const ground of ['not_experience', 'offensive', 'personal_data', 'spam', 'conflict_of_interest', 'other']) {
      expect(html).toContain(`value="${ground}"`);
    }
    expect(html).not.toContain('<script');
    expect(await (await t.fetch(`/reviews/${review.id}/report?lang=nl`)).text()).toContain('Review melden');
  });

  it('records a report and thanks the reporter; the operator sees it in the queue', async () => {
    const review = await newReview();
    const res = await report(review.id, {
      ground: 'personal_data',
      text: 'It has a phone number',
      email: 'Reporter@Example.com',
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('Thank you for your report');
    const mine = (await openReports()).filter((r) => r.review_id === review.id);
    expect(mine).toEqual([
      expect.objectContaining({
        ground: 'personal_data',
        text: 'It has a phone number',
        email: 'Reporter@example.com',
        status: 'open',
      }),
    ]);
    // The trail names the report, never the reporter's address or words.
    const [entry] = await t.services.audit.list({ shopId: shop.id, limit: 1 });
    expect(entry).toMatchObject({ action: 'report.created', actor: { kind: 'user' }, target: `review:${review.id}` });
    expect(JSON.stringify(entry)).not.toMatch(/reporter|phone number/i);
  });

  it('answers bad input with the form and a clear message, and stores nothing', async () => {
    const review = await newReview();
    const before = (await openReports()).length;
    const noGround = await report(review.id, { text: 'x' });
    expect(noGround.status).toBe(400);
    expect(await noGround.text()).toContain('Choose why the review should be checked.');
    const badEmail = await report(review.id, { ground: 'spam', email: 'not-an-address' });
    expect(badEmail.status).toBe(400);
    expect(await badEmail.text()).toContain('Enter a valid e-mail address');
    const tooLong = await report(review.id, { ground: 'spam', text: 'x'.repeat(2001) });
    expect(tooLong.status).toBe(400);
    const unknownGround = await report(review.id, { ground: '$where' });
    expect(unknownGround.status).toBe(400);
    // An operator-shaped field (`ground[$ne]=x`) is not a string: no ground.
    const injected = await t.fetch(`/reviews/${review.id}/report`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `ground[$ne]=x&token=${encodeURIComponent(await formToken(t, review.id))}`,
    });
    expect(injected.status).toBe(400);
    // A post without a form this service showed (a page elsewhere posting blind): the form again, filled in.
    const forged = await report(review.id, {
      ground: 'spam',
      text: 'kept text',
      token: `1700000000.${'A'.repeat(43)}`,
    });
    expect(forged.status).toBe(400);
    const page = await forged.text();
    expect(page).toContain('open for too long');
    expect(page).toContain('kept text');
    expect((await openReports()).length).toBe(before);
  });

  it('is linked from each review on the shop page, in the page’s language', async () => {
    const review = await newReview();
    const page = await (await t.fetch(`/webshops/${shop.id}?lang=de`)).text();
    expect(page).toContain(`href="/reviews/${review.id}/report?lang=de"`);
    expect(await (await t.fetch(`/reviews/${review.id}/report?lang=de`)).text()).toContain('Bewertung melden');
  });

  it('answers a readable 404 page for a review that does not exist or is not shown', async () => {
    const hidden = await t.services.reviews.create(shop.id, {
      name: 'Q',
      email: 'q@example.com',
      rating: 5,
      language: 'en',
      quarantine: true,
    });
    for (const path of ['/reviews/999999/report', `/reviews/${hidden.id}/report`, '/reviews/abc/report']) {
      const res = await t.fetch(path);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toContain('text/html');
    }
  });
});

describe('decisions', () => {
  it('remove: soft delete with the ground, reviews.deleted to the shop, the writer e-mailed the ground (not the report), audit', async () => {
    const review = await newReview({ email: 'writer@example.com', language: 'de' });
    await report(review.id, { ground: 'offensive', text: 'SECRET REPORT TEXT' });
    await report(review.id, { ground: 'spam' });
    const [first, second] = (await openReports()).filter((r) => r.review_id === review.id);

    const res = await decide(first!.id, {
      action: 'remove',
      ground: 'offensive',
      note: 'insults staff',
      statement: 'The review insults the staff by name.',
    });
    expect(res.status).toBe(200);
    expect((await res.json()).report).toMatchObject({
      status: 'removed',
      decision: { action: 'remove', ground: 'offensive', note: 'insults staff' },
    });

    const stored = (await t.services.reviews.get(review.id))!;
    expect(stored).toMatchObject({ deleted: true, published: false, removalGround: 'offensive', email: '' });
    await receiver.waitFor(() =>
      receiver.at('/reviews.deleted').some((r) => r.eventId === `${review.id}:${stored.version}`),
    );
    expect(receiver.at('/reviews.deleted').every((r) => r.verified)).toBe(true);

    await sink.waitFor((s) => s.to('writer@example.com').length === 1);
    const [mail] = sink.to('writer@example.com');
    // One e-mail per decision: keyed by the decided report, not the review (a review may be removed twice).
    expect(mail!.messageId).toBe(`<report.${first!.id}.removed@reviews.example>`);
    expect(mail!.headers.subject).toBe('Ihre Bewertung von Fiets & Co wurde entfernt');
    expect(mail!.body).toContain('beleidigend, diskriminierend oder bedrohend');
    expect(mail!.body).toContain(`/webshops/${shop.id}/policy`);
    expect(mail!.raw).not.toContain('SECRET REPORT TEXT');

    // The other report of the same review is closed with it; a second decision is refused.
    expect((await openReports()).some((r) => r.id === second!.id)).toBe(false);
    expect((await decide(first!.id, { action: 'keep' })).status).toBe(409);

    const counts = await t.services.moderation.removalsByGround(shop.id, new Date(Date.now() - 86_400_000));
    expect(counts.offensive).toBeGreaterThanOrEqual(1);
    const trail = await t.services.audit.list({ shopId: shop.id, limit: 10 });
    expect(trail.find((e) => e.action === 'report.removed')).toMatchObject({
      actor: { kind: 'operator' },
      target: `review:${review.id}`,
      details: { report: first!.id, ground: 'offensive', note: 'insults staff' },
    });
  });

  it('remove: a writer’s address the mail server refuses for good leaves an audit entry, not a queued address', async () => {
    const review = await newReview({ email: 'bounce@example.com' });
    await report(review.id, { ground: 'spam' });
    const mine = (await openReports()).find((r) => r.review_id === review.id)!;
    expect((await decide(mine.id, { action: 'remove', ground: 'spam', statement: 'Advertising.' })).status).toBe(200);
    let failed: Awaited<ReturnType<typeof t.services.audit.list>>[number] | undefined;
    for (let i = 0; i < 600 && !failed; i++) {
      await new Promise((r) => setTimeout(r, 100));
      failed = (await t.services.audit.list({ shopId: shop.id, limit: 20 })).find(
        (e) => e.action === 'report.removal_notice_failed' && e.target === `review:${review.id}`,
      );
    }
    expect(failed).toMatchObject({
      actor: { kind: 'system' },
      details: { reason: expect.stringMatching(/^rejected: .*sha256:[0-9a-f]{64}/) },
    });
    expect(JSON.stringify(failed)).not.toContain('bounce@');
    expect(await t.services.outbox.get(decisionRemovalKey(mine.id))).toBeUndefined();
  });

  it('remove: a removal notice the version before the decision notices queued (kind `removal`) is still sent', async () => {
    const reviewId = 987_654;
    await queueMail(t.services, removalNoticeKey(reviewId), {
      kind: 'removal',
      reviewId,
      shopId: shop.id,
      to: 'old-queue@example.com',
      language: 'en',
      ground: 'spam',
    });
    await sink.waitFor((s) => s.to('old-queue@example.com').length === 1, 60_000);
    const [mail] = sink.to('old-queue@example.com');
    expect(mail!.messageId).toBe(`<review.${reviewId}.removed@reviews.example>`);
    expect(mail!.headers.subject).toContain('Fiets & Co');
    expect(mail!.body).toContain(`/webshops/${shop.id}/policy`);
    // It names no decided report: no complaint link can be made for it.
    expect(mail!.body).not.toContain('/appeal/');
  });

  it('remove: a fourth decision e-mail to one address in a day is not queued, and the trail says so', async () => {
    const reviews: Awaited<ReturnType<typeof newReview>>[] = [];
    for (let i = 0; i < 4; i++) reviews.push(await newReview({ email: 'busy@example.com' }));
    const decided: string[] = [];
    for (const review of reviews) {
      await report(review.id, { ground: 'spam' });
      const mine = (await openReports()).find((r) => r.review_id === review.id)!;
      decided.push(mine.id);
      expect((await decide(mine.id, { action: 'remove', ground: 'spam', statement: 'Advertising.' })).status).toBe(200);
    }
    await sink.waitFor((s) => s.to('busy@example.com').length === 3, 60_000);
    const trail = await t.services.audit.list({ shopId: shop.id, limit: 50 });
    const limited = trail.filter((e) => e.action === 'report.notice_limited');
    expect(limited).toEqual([
      expect.objectContaining({ target: `review:${reviews[3]!.id}`, details: { kind: 'removed', role: 'writer' } }),
    ]);
    expect(await t.services.outbox.get(decisionRemovalKey(decided[3]!))).toBeUndefined();
    let sent: typeof trail = [];
    for (let i = 0; i < 600 && sent.length < 3; i++) {
      await new Promise((r) => setTimeout(r, 100));
      sent = (await t.services.audit.list({ shopId: shop.id, limit: 50 })).filter(
        (e) => e.action === 'report.notice_sent' && reviews.some((r) => e.target === `review:${r.id}`),
      );
    }
    expect(sent).toHaveLength(3);
  });

  it('keep: the review stays as it is, no event, the report leaves the open queue', async () => {
    const review = await newReview();
    await report(review.id, { ground: 'not_experience' });
    const mine = (await openReports()).find((r) => r.review_id === review.id)!;
    const res = await decide(mine.id, { action: 'keep', ground: 'not_experience', note: 'order checked' });
    expect(res.status).toBe(200);
    const stored = (await t.services.reviews.get(review.id))!;
    expect(stored).toMatchObject({ deleted: false, published: true, version: review.version });
    expect((await openReports()).some((r) => r.id === mine.id)).toBe(false);
    const kept = await (await t.admin('/admin/api/reports?status=kept')).json();
    expect(kept.reports.map((r: { id: string }) => r.id)).toContain(mine.id);
  });

  it('redact: replaces the passage, keeps the review, sends reviews.updated; the passage is kept only apart, for a complaint', async () => {
    const review = await newReview();
    await report(review.id, { ground: 'personal_data' });
    const mine = (await openReports()).find((r) => r.review_id === review.id)!;
    const missing = await decide(mine.id, { action: 'redact', ground: 'personal_data', passage: 'not in the text' });
    expect(missing.status).toBe(422);
    expect((await missing.json()).error.code).toBe('validation_failed');

    const res = await decide(mine.id, {
      action: 'redact',
      ground: 'personal_data',
      note: 'phone',
      statement: 'The review gave a phone number.',
      passage: '0612345678',
    });
    expect(res.status).toBe(200);
    const stored = (await t.services.reviews.get(review.id))!;
    expect(stored.comment).toBe('Slow delivery. Call me on […].');
    expect(stored.published).toBe(true);
    await receiver.waitFor(() =>
      receiver.at('/reviews.updated').some((r) => r.eventId === `${review.id}:${stored.version}`),
    );
    const trail = await t.services.audit.list({ shopId: shop.id, limit: 5 });
    expect(trail.find((e) => e.action === 'report.redacted')!.details).toMatchObject({ redacted_chars: 10 });
    expect(JSON.stringify(trail)).not.toContain('0612345678');
    expect(JSON.stringify(await (await t.admin('/admin/api/reports?status=redacted')).json())).not.toContain(
      '0612345678',
    );
    // Kept apart by decision, for six months, so that a complaint can give it back (issue 21).
    expect((await t.services.moderation.withheldTexts(mine.id))?.comment).toContain('0612345678');
  });

  it('answers bad requests in the operator envelope', async () => {
    const review = await newReview();
    await report(review.id, { ground: 'other' });
    const mine = (await openReports()).find((r) => r.review_id === review.id)!;
    const noToken = await t.fetch(`/admin/api/reports/${mine.id}/decision`, { method: 'POST', body: '{}' });
    expect(noToken.status).toBe(401);
    for (const body of [
      {},
      { action: 'delete' },
      { action: 'remove' },
      { action: 'remove', ground: 'ugly' },
      { action: 'keep', extra: 1 },
      { action: 'redact', ground: 'spam' },
    ]) {
      const res = await decide(mine.id, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect((await res.json()).error).toMatchObject({ code: 'validation_failed', message: expect.any(String) });
    }
    expect((await decide('0123456789abcdef01234567', { action: 'keep' })).status).toBe(404);
    expect((await decide('nope', { action: 'keep' })).status).toBe(404);
    expect((await t.admin('/admin/api/reports?status=everything')).status).toBe(400);
    expect((await t.admin('/admin/api/reports?limit=0')).status).toBe(400);
    // The report is still open: nothing was half-done.
    expect((await openReports()).some((r) => r.id === mine.id)).toBe(true);
  });

  it('pages the queue oldest first with `after`', async () => {
    const all = await openReports();
    const first = await (await t.admin('/admin/api/reports?limit=2')).json();
    expect(first.reports.map((r: { id: string }) => r.id)).toEqual(all.slice(0, 2).map((r) => r.id));
    const next = await (await t.admin(`/admin/api/reports?limit=2&after=${first.next_after}`)).json();
    expect(next.reports.map((r: { id: string }) => r.id)).toEqual(all.slice(2, 4).map((r) => r.id));
  });
});

describe('limits', () => {
  it('limits reports per client address and per review, with a readable 429 page', async () => {
    const app = await startTestApp({ TRUST_PROXY: '1' });
    try {
      const s = await app.createShop();
      const review = await app.services.reviews.create(s.id, {
        name: 'A',
        email: 'a@example.com',
        rating: 4,
        language: 'en',
      });
      const from = (ip: string) => ({ app, headers: { 'x-forwarded-for': ip } });
      for (let i = 0; i < REPORTS_PER_ADDRESS_PER_HOUR; i++)
        expect((await report(review.id, { ground: 'spam' }, from('10.0.0.1'))).status).toBe(200);
      const limited = await report(review.id, { ground: 'spam' }, from('10.0.0.1'));
      expect(limited.status).toBe(429);
      expect(limited.headers.get('retry-after')).toBe('3600');
      expect(await limited.text()).toContain('Too many reports');

      for (let i = REPORTS_PER_ADDRESS_PER_HOUR; i < REPORTS_PER_REVIEW_PER_HOUR; i++) {
        expect((await report(review.id, { ground: 'spam' }, from(`10.0.1.${i}`))).status).toBe(200);
      }
      expect((await report(review.id, { ground: 'spam' }, from('10.0.2.1'))).status).toBe(429);
      const other = await app.services.reviews.create(s.id, {
        name: 'B',
        email: 'b@example.com',
        rating: 4,
        language: 'en',
      });
      expect((await report(other.id, { ground: 'spam' }, from('10.0.2.1'))).status).toBe(200);
    } finally {
      await app.close();
    }
  });
});
