// Issue 21, "The compliance report": counters kept as things happen (per shop, day and process), read for the days
// asked for. Fixtures go through the real paths (Add invitation and its e-mail to a real SMTP server, review writes,
// the report form, the operator's decisions); the figures are then read from the report (JSON and CSV), the policy
// page's per-star table and the dashboard overview.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, withAuth, type TestApp } from '../../test/harness.js';
import { startSmtpSink, type SmtpSink } from '../../test/smtp-sink.js';
import { signedInAgent } from '../accounts/test-session.js';
import type { Webshop } from '../webshops/store.js';
import { ComplianceStore } from './store.js';
import { COMPLIANCE_MAX_DAYS } from './admin.js';

let t: TestApp;
let sink: SmtpSink;
let shop: Webshop;
let clock = new Date('2026-03-10T09:00:00Z');
const TODAY = '2026-03-12';

beforeAll(async () => {
  sink = await startSmtpSink();
  t = await startTestApp(
    { SMTP_URL: sink.url, MAIL_FROM: 'Reviews <noreply@reviews.example>', SCHEDULER_POLL_MS: '200', TRUST_PROXY: '1' },
    { now: () => clock },
  );
  shop = await t.createShop({ name: 'Fiets & Co' });
  await t.services.scheduler.start();

  // Day 1 (10 March): an invitation, queued and sent.
  const invited = await t.fetch(withAuth('/api/1.0/invitations.json', shop), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email: 'jane@example.com', order: 'A-1', delay: '0' }).toString(),
  });
  expect(invited.status).toBe(200);
  await sink.waitFor((s) => s.to('jane@example.com').length === 1, 60_000);
  // Counted once the send is recorded, just after the server took the e-mail.
  for (let i = 0; i < 600; i++) {
    await t.services.compliance.flush();
    if ((await t.services.compliance.ofShop(shop.id, '2026-03-10', '2026-03-10'))['invitations:sent']) break;
    await new Promise((r) => setTimeout(r, 50));
  }

  // Day 2 (11 March): a quarantined 3-star review.
  clock = new Date('2026-03-11T09:00:00Z');
  const held = await t.services.reviews.create(shop.id, {
    name: 'Q',
    email: 'q@example.com',
    rating: 3,
    language: 'en',
    quarantine: true,
    source: 'form',
  });

  // Day 3 (12 March): it is released (26 hours after receipt); a 1-star and a 5-star review; a report on each,
  // one removed and one kept.
  clock = new Date('2026-03-12T11:00:00Z');
  await t.services.reviews.update(held.id, { quarantine: false });
  const low = await t.services.reviews.create(shop.id, {
    name: 'L',
    email: 'low@example.com',
    rating: 1,
    language: 'en',
    comment: 'Awful, the driver swore at me.',
    source: 'invitation',
    verified: true,
  });
  const high = await t.services.reviews.create(shop.id, {
    name: 'H',
    email: 'high@example.com',
    rating: 5,
    language: 'en',
    comment: 'Great.',
    source: 'popup',
  });
  for (const [review, action] of [
    [low, { action: 'remove', ground: 'offensive', statement: 'Swearing.' }],
    [high, { action: 'keep' }],
  ] as const) {
    const html = await (await t.fetch(`/reviews/${review.id}/report`)).text();
    const token = /name="token" value="([^"]+)"/.exec(html)![1]!;
    await t.fetch(`/reviews/${review.id}/report`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': `192.0.2.${review.id % 200}` },
      body: new URLSearchParams({ ground: 'offensive', token }).toString(),
    });
    const open = (await (await t.admin('/admin/api/reports?status=open')).json()).reports as {
      id: string;
      review_id: number;
    }[];
    const mine = open.find((r) => r.review_id === review.id)!;
    expect((await t.admin(`/admin/api/reports/${mine.id}/decision`, { method: 'POST', json: action })).status).toBe(
      200,
    );
  }
});
afterAll(async () => {
  await t.services.scheduler.stop();
  t.services.mailer.close();
  await t.close();
  await sink.close();
});

const report = (query: string) => t.admin(`/admin/api/compliance?${query}`);

describe('GET /admin/api/compliance', () => {
  it('gives each figure from the counters of the days asked for', async () => {
    const res = await report(`from=2026-03-01&to=2026-03-31&webshop=${shop.id}`);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ from: '2026-03-01', to: '2026-03-31' });
    expect(body.webshops).toHaveLength(1);
    expect(body.webshops[0]).toMatchObject({
      webshop_id: shop.id,
      invitations: { queued: 1, sent: 1 },
      received: {
        by_origin: { verified_order: 1, email_confirmed: 2, imported: 0 },
        by_star: { 1: 1, 2: 0, 3: 1, 4: 0, 5: 1 },
      },
      published: { by_star: { 1: 1, 2: 0, 3: 1, 4: 0, 5: 1 } },
      time_to_publication: { under_1h: 2, under_1d: 0, under_3d: 1 },
      reports: { received: 2, kept: 1, removed: 1, redacted: 0, dismissed: 0 },
      complaints: { received: 0, upheld: 0, reversed: 0 },
    });
    expect(body.webshops[0].removed.offensive).toEqual({ 1: 1, 2: 0, 3: 0, 4: 0, 5: 0 });
  });

  it('reads only the days asked for', async () => {
    const first = (await (await report(`from=2026-03-10&to=2026-03-10&webshop=${shop.id}`)).json()).webshops[0];
    expect(first.invitations).toEqual({ queued: 1, sent: 1 });
    expect(first.received.by_star).toEqual({ 1: 0, 2: 0, 3: 0, 4: 0, 5: 0 });
    const second = (await (await report(`from=2026-03-11&to=2026-03-11&webshop=${shop.id}`)).json()).webshops[0];
    expect(second.received.by_star[3]).toBe(1);
    expect(second.published.by_star[3]).toBe(0);
    const third = (await (await report(`from=${TODAY}&to=${TODAY}&webshop=${shop.id}`)).json()).webshops[0];
    expect(third.published.by_star[3]).toBe(1);
    expect(third.time_to_publication.under_3d).toBe(1);
  });

  it('without a shop: every shop with anything counted in the range', async () => {
    const body = await (await report('from=2026-03-01&to=2026-03-31')).json();
    expect(body.webshops.map((s: { webshop_id: number }) => s.webshop_id)).toEqual([shop.id]);
    expect((await (await report('from=2025-01-01&to=2025-01-31')).json()).webshops).toEqual([]);
  });

  it('as CSV for a spreadsheet', async () => {
    const res = await report(`from=2026-03-01&to=2026-03-31&webshop=${shop.id}&format=csv`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="compliance-2026-03-01-2026-03-31.csv"');
    const bytes = Buffer.from(await res.arrayBuffer());
    // UTF-8 with a byte-order mark (fetch's text() would drop it).
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = bytes.subarray(3).toString('utf8');
    expect(text.startsWith('webshop_id,section,figure,star,count\r\n')).toBe(true);
    expect(text).toContain(`${shop.id},invitations,sent,,1\r\n`);
    expect(text).toContain(`${shop.id},removed,offensive,1,1\r\n`);
  });

  it('refuses bad ranges and input with a 422, an unknown shop with a 404, no token with a 401', async () => {
    for (const query of [
      'from=2026-01-01&to=2027-01-02',
      'from=2026-03-10&to=2026-03-09',
      'from=2026-02-30&to=2026-03-01',
      'from=2026-03-01',
      'from=2026-03-01&to=2026-03-02&format=xls',
      'from=2026-03-01&to=2026-03-02&other=1',
      'from[$gt]=&to=2026-03-02',
    ]) {
      const res = await report(query);
      expect(res.status, query).toBe(422);
      expect((await res.json()).error.code, query).toBe('validation_failed');
    }
    expect(COMPLIANCE_MAX_DAYS).toBe(366);
    expect((await report('from=2024-01-01&to=2024-12-31')).status).toBe(200);
    expect((await report('from=2026-03-01&to=2026-03-02&webshop=999999')).status).toBe(404);
    expect((await t.fetch('/admin/api/compliance?from=2026-03-01&to=2026-03-02')).status).toBe(401);
  });
});

describe('the per-star table', () => {
  it('is on the policy page: received, published and removed per ground, per star', async () => {
    const html = await (await t.fetch(`/webshops/${shop.id}/policy?lang=en`)).text();
    expect(html).toContain('Reviews per star in the last 12 months');
    const row = (name: string) =>
      [...(new RegExp(`<tr data-row="${name}">(.*?)</tr>`).exec(html)?.[1] ?? '').matchAll(/<td>(\d+)<\/td>/g)].map(
        (m) => Number(m[1]),
      );
    expect(row('received')).toEqual([1, 0, 1, 0, 1]);
    expect(row('published')).toEqual([1, 0, 1, 0, 1]);
    expect(row('removed:offensive')).toEqual([1, 0, 0, 0, 0]);
    expect(row('removed:spam')).toEqual([0, 0, 0, 0, 0]);
  });

  it('is in the dashboard overview, the shop’s own copy', async () => {
    const { headers } = await signedInAgent(t, { email: 'support@fiets.example', shopId: shop.id, role: 'support' });
    const body = await (await t.fetch(`/dashboard/api/shops/${shop.id}/overview`, { headers })).json();
    expect(body.stars).toMatchObject({
      received: { 1: 1, 3: 1, 5: 1 },
      published: { 1: 1, 3: 1, 5: 1 },
      removed: { offensive: { 1: 1 } },
    });
  });
});

describe('the counters under concurrency', () => {
  it('two processes counting one shop-day at once lose nothing: each writes only its own document', async () => {
    const at = () => new Date('2026-04-01T12:00:00Z');
    const a = new ComplianceStore(t.db, at);
    const b = new ComplianceStore(t.db, at);
    for (let i = 0; i < 40; i++) {
      a.count(4242, { kind: 'report_received' });
      b.count(4242, { kind: 'report_received' });
      // Flushes overlap with new counts: each document's writes follow each other.
      if (i % 10 === 0) void Promise.all([a.flush(), b.flush()]);
    }
    await Promise.all([a.flush(), b.flush(), a.flush()]);
    expect((await a.ofShop(4242, '2026-04-01', '2026-04-01'))['reports:received']).toBe(80);
    expect(await t.db.collection('compliance_days').countDocuments({ shopId: 4242 })).toBe(2);
  });
});
