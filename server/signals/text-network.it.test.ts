// Issue 21, `duplicate_text` and `shared_network`: raised in the worker after the review is written, with review ids
// and figures as evidence; not raised below their thresholds; none for imported reviews; a review checked by another
// worker process is seen; what is stored leaves by `_id` when its window is over.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, withAuth, type TestApp } from '../../test/harness.js';
import { orderSignature } from '../consents/signature.js';
import { loadConfig } from '../config.js';
import type { NewReview } from '../reviews/model.js';
import { addDays } from '../time.js';
import type { Webshop } from '../webshops/store.js';
import { DuplicateIndex } from './duplicate-check.js';
import { dayKey } from './rules.js';
import { SIGNAL_NETWORK_QUEUE, SIGNAL_REVIEW_QUEUE } from './store.js';
import { TextBlockStore } from './text-store.js';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ SCHEDULER_POLL_MS: '200', TRUST_PROXY: 'true' });
  await t.services.scheduler.start();
});
afterAll(async () => {
  await t.services.scheduler.stop();
  await t.close();
});

interface Listed {
  id: string;
  review_id: number;
  webshop_id: number;
  source: string;
  signal?: { name: string; review_ids: number[]; figures: Record<string, number> };
}

/** The worker has checked every review and network note so far; then the shop's signals in the open queue. */
async function signalsOf(shopId: number): Promise<Listed[]> {
  const queued = async () =>
    (await t.db.collection(SIGNAL_REVIEW_QUEUE).countDocuments()) +
    (await t.db.collection(SIGNAL_NETWORK_QUEUE).countDocuments());
  // The periodic run would find them too; started here, the test waits less.
  if ((await queued()) > 0) t.services.scheduler.trigger('signals.check');
  for (let i = 0; i < 600 && (await queued()) > 0; i++) await new Promise((r) => setTimeout(r, 100));
  expect(await queued()).toBe(0);
  const res = await t.admin('/admin/api/reports?status=open&limit=100');
  return ((await res.json()).reports as Listed[]).filter((r) => r.webshop_id === shopId && r.source === 'signal');
}

const write = (shop: Webshop, comment: string, fields: Partial<NewReview> = {}) =>
  t.services.reviews.create(shop.id, {
    name: 'Piet',
    email: `p${randomBytes(4).toString('hex')}@example.com`,
    rating: 5,
    language: 'en',
    comment,
    source: 'invitation',
    verified: true,
    ...fields,
  });

/** `n` distinct words (so every 3-shingle is distinct), different for each `prefix`. */
const words = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => `${prefix}${i}`);
const text = (list: string[]) => list.join(' ');

describe('duplicate_text', () => {
  it('is raised for the same text at any shop and for a close match at 0.8; not at 11 words or just below 0.8', async () => {
    const [a, b, c, d] = await Promise.all(['A', 'B', 'C', 'D'].map((n) => t.createShop({ name: `Dup ${n}` })));
    const base = words(42, 'alpha'); // 40 shingles
    const first = await write(a!, text(base));
    const copy = await write(b!, `${text(base).toUpperCase().replace(/ /g, ',  ')}!`);
    // 40 shingles in common of 50: exactly 0.8.
    const close = await write(c!, text([...base, ...words(10, 'tail')]));
    // Another text, and a review with 40 of its 51 shingles (0.784): not close enough.
    const other = words(42, 'beta');
    await write(a!, text(other));
    await write(d!, text([...other, ...words(11, 'tail')]));
    // 11 words, the same twice: too short to say anything.
    await write(a!, text(words(11, 'gamma')));
    await write(d!, text(words(11, 'gamma')));

    expect((await signalsOf(b!.id)).map((r) => [r.review_id, r.signal])).toEqual([
      [copy.id, { name: 'duplicate_text', review_ids: [copy.id, first.id], figures: { similarity: 1, matches: 1 } }],
    ]);
    expect((await signalsOf(c!.id)).map((r) => r.signal)).toEqual([
      { name: 'duplicate_text', review_ids: [close.id, first.id, copy.id], figures: { similarity: 0.8, matches: 2 } },
    ]);
    expect(await signalsOf(a!.id)).toEqual([]);
    expect(await signalsOf(d!.id)).toEqual([]);
    // Detect, never hide.
    expect((await t.services.reviews.get(copy.id))!.published).toBe(true);
    // Evidence holds no hash: the stored blocks hold band keys, the queue only ids and figures.
    const report = await t.db.collection('reports').findOne({ reviewId: copy.id });
    expect(JSON.stringify(report?.signal)).not.toMatch(/[A-Za-z0-9_-]{20,}/);
  });

  it('imported reviews raise none and are not compared against', async () => {
    const shop = await t.createShop({ name: 'Dup import' });
    const other = await t.createShop({ name: 'Dup later' });
    const base = words(30, 'delta');
    const original = await write(shop, text(base));
    await write(shop, text(base), { source: 'import', verified: false });
    expect(await signalsOf(shop.id)).toEqual([]);
    const later = await write(other, text(base));
    expect((await signalsOf(other.id)).map((r) => r.signal?.review_ids)).toEqual([[later.id, original.id]]);
  });
});

describe('duplicate_text across worker processes and days', () => {
  const comments = new Map<number, string>();
  const commentOf = async (id: number) => comments.get(id);
  const db = () => t.client.db(`t_${randomBytes(6).toString('hex')}`);

  it('sees a review another worker checked after it started (the blocks are the truth)', async () => {
    const shared = db();
    const one = new DuplicateIndex(new TextBlockStore(shared), commentOf);
    const two = new DuplicateIndex(new TextBlockStore(shared), commentOf);
    const now = new Date();
    await one.start(now);
    await two.start(now);
    const body = text(words(20, 'epsilon'));
    comments.set(1, body).set(2, body);
    expect(await one.check(1, body, now)).toEqual([]);
    expect(await two.check(2, body, now)).toEqual([{ id: 1, similarity: 1 }]);
    // A third process starting later reads both from the blocks.
    const three = new DuplicateIndex(new TextBlockStore(shared), commentOf);
    comments.set(3, body);
    expect((await three.check(3, body, now)).map((m) => m.id).sort()).toEqual([1, 2]);
    // Past one chunk of the day (64 entries): a copy of the first and of the last is found by the other worker.
    const many = Array.from({ length: 70 }, (_, i) => text(words(12, `many${i}-`)));
    for (const [i, body] of many.entries()) {
      comments.set(100 + i, body);
      expect(await one.check(100 + i, body, now)).toEqual([]);
    }
    comments.set(200, many[0]!).set(201, many[69]!);
    expect(await two.check(200, many[0]!, now)).toEqual([{ id: 100, similarity: 1 }]);
    expect(await two.check(201, many[69]!, now)).toEqual([{ id: 169, similarity: 1 }]);
    expect(await shared.collection('signal_text_recent').countDocuments()).toBe(2);
    await shared.dropDatabase();
  });

  it('forgets a day when it is 365 days old, and deletes its block by _id', async () => {
    const shared = db();
    const body = text(words(20, 'zeta'));
    comments.set(11, body).set(12, body).set(13, body);
    const start = new Date('2026-01-10T12:00:00Z');
    const running = new DuplicateIndex(new TextBlockStore(shared), commentOf);
    expect(await running.check(11, body, start)).toEqual([]);
    // Day 364 is still in the window, day 365 is not.
    expect(await running.check(12, body, addDays(start, 364))).toEqual([{ id: 11, similarity: 1 }]);
    const blocks = shared.collection<{ _id: string }>('signal_text_days');
    expect(await blocks.countDocuments({ _id: dayKey(start) })).toBe(1);
    expect(await running.check(13, body, addDays(start, 365))).toEqual([{ id: 12, similarity: 1 }]);
    expect(await blocks.countDocuments({ _id: dayKey(start) })).toBe(0);
    expect(running.memory.pairs).toBe(32);
    await shared.dropDatabase();
  });
});

describe('shared_network', () => {
  const chrome =
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';
  const firefox = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
  let n = 0;
  /** The experience form (serviceAddReview) posted from `ip` with `userAgent`: the review written. */
  async function post(shop: Webshop, ip: string, userAgent: string): Promise<number> {
    const email = `net${++n}@example.com`;
    const res = await t.fetch(`/embed/${shop.id}/experiences`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': ip, 'user-agent': userAgent },
      body: JSON.stringify({ rating: 5, comment: `Review ${n}`, name: 'Jan', email, language: 'en', website: '' }),
    });
    expect(res.status).toBe(202);
    return (await t.db.collection('reviews').findOne({ shopId: shop.id, email }))!._id as unknown as number;
  }

  it('is raised for three reviews of one shop from one network and browser family; stores no address', async () => {
    const shop = await t.createShop({ name: 'Net BV' });
    const ids = [
      await post(shop, '198.51.100.10', chrome),
      await post(shop, '198.51.100.20', chrome),
      await post(shop, '198.51.100.30', chrome),
    ];
    const raised = await signalsOf(shop.id);
    expect(raised.map((r) => [r.review_id, r.signal])).toEqual([
      [ids[2], { name: 'shared_network', review_ids: ids, figures: { reviews: 3, days: 30 } }],
    ]);
    const stored = JSON.stringify(await t.db.collection('signal_networks').find({}).toArray());
    expect(stored).not.toContain('198.51');
    expect(stored).toContain('chrome');
    // IPv6: one /48.
    const six = await t.createShop({ name: 'Net six' });
    const sixIds = [];
    for (const ip of ['2001:db8:1:1::1', '2001:db8:1:2::1', '2001:db8:1:ffff::9'])
      sixIds.push(await post(six, ip, chrome));
    expect((await signalsOf(six.id)).map((r) => r.signal?.review_ids)).toEqual([sixIds]);
  });

  it('is noted where a writer submits: the review page, the pop-up’s review API and the experience form', async () => {
    const shop = await t.createShop({ name: 'Net paths', url: 'https://paths.example/' });
    const headers = (ip: string, type: string) => ({
      'content-type': type,
      'x-forwarded-for': ip,
      'user-agent': firefox,
    });
    // The review page of a sent invitation.
    const invited = await t.fetch(withAuth('/api/1.0/invitations.json', shop), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        email: 'page@example.com',
        order: 'N-1',
        language: 'en',
        customer_name: 'P',
      }).toString(),
    });
    expect((await invited.json()).status).toBe('success');
    const token = 'netpathstoken0123456789abcdefghij';
    await t.db
      .collection('invitations')
      .updateOne({ shopId: shop.id, order: 'N-1' }, { $set: { token, sent: new Date(), status: 'sent' } });
    const page = await t.fetch(`/review/${token}`, {
      method: 'POST',
      headers: headers('203.0.113.5', 'application/x-www-form-urlencoded'),
      body: new URLSearchParams({ rating: '5', name: 'Page', country: 'NL', comment: '' }).toString(),
    });
    expect(page.status).toBe(200);
    // The pop-up: signed order data, Write now, then the review.
    const order = {
      webshopId: shop.id,
      orderNumber: 'N-2',
      email: 'popup@example.com',
      firstName: 'Pop',
      inviteDelay: 3,
    };
    const consent = await t.fetch(`/embed/${shop.id}/consent`, {
      method: 'POST',
      headers: headers('203.0.113.6', 'application/json'),
      body: JSON.stringify({
        order,
        signature: orderSignature(order, shop.id, shop.code),
        choice: 'write_now',
        language: 'en',
        textVersion: 'popup-v1',
      }),
    });
    expect(consent.status).toBe(201);
    const { reviewToken } = await consent.json();
    const popup = await t.fetch(`/embed/${shop.id}/reviews`, {
      method: 'POST',
      headers: headers('203.0.113.6', 'application/json'),
      body: JSON.stringify({ reviewToken, rating: 4, name: 'Pop', country: 'nl', comment: '' }),
    });
    expect(popup.status).toBe(201);
    const third = await post(shop, '203.0.113.7', firefox);
    const ids = [
      (await t.db.collection('reviews').findOne({ shopId: shop.id, email: 'page@example.com' }))!._id,
      (await popup.json()).id,
      third,
    ];
    expect((await signalsOf(shop.id)).map((r) => r.signal)).toEqual([
      { name: 'shared_network', review_ids: ids, figures: { reviews: 3, days: 30 } },
    ]);
  });

  it('is not raised for two reviews, another browser family or another network', async () => {
    const two = await t.createShop({ name: 'Net two' });
    await post(two, '192.0.2.1', chrome);
    await post(two, '192.0.2.2', chrome);
    const family = await t.createShop({ name: 'Net family' });
    await post(family, '192.0.2.1', chrome);
    await post(family, '192.0.2.2', chrome);
    await post(family, '192.0.2.3', firefox);
    const network = await t.createShop({ name: 'Net network' });
    await post(network, '192.0.2.1', chrome);
    await post(network, '192.0.2.2', chrome);
    await post(network, '192.0.3.3', chrome);
    for (const shop of [two, family, network]) expect(await signalsOf(shop.id)).toEqual([]);
  });

  it('counts only the last 30 days, and drops a day’s buckets by _id when it is 30 days old', async () => {
    const shop = await t.createShop({ name: 'Net old' });
    const old = [await write(shop, 'Old one'), await write(shop, 'Old two')];
    await signalsOf(shop.id);
    const key = 'k'.repeat(43);
    const thirtyAgo = addDays(new Date(), -30);
    for (const r of old) await t.services.signals.queueNetworkNote(r, { key, family: 'chrome' }, thirtyAgo);
    await signalsOf(shop.id);
    expect(
      await t.db.collection('signal_networks').countDocuments({ _id: `${shop.id}:${dayKey(thirtyAgo)}` } as never),
    ).toBe(0);
    expect(await t.db.collection('signal_network_days').countDocuments({ _id: dayKey(thirtyAgo) } as never)).toBe(0);
    const now = await write(shop, 'New one');
    await t.services.signals.queueNetworkNote(now, { key, family: 'chrome' }, new Date());
    expect(await signalsOf(shop.id)).toEqual([]);
  });
});

describe('switches and the key', () => {
  it('each signal can be switched off; SIGNAL_KEY is required in production and is at least 32 bytes', () => {
    const production = {
      NODE_ENV: 'production',
      ADMIN_TOKEN: 'a'.repeat(32),
      MONGODB_URI: 'mongodb://127.0.0.1:1',
      SMTP_URL: 'smtp://127.0.0.1:1',
    };
    expect(() => loadConfig(production)).toThrow(/SIGNAL_KEY: required when NODE_ENV=production/);
    expect(() => loadConfig({ ...production, SIGNAL_KEY: 'x'.repeat(31) })).toThrow(/SIGNAL_KEY/);
    expect(loadConfig({ ...production, SIGNAL_KEY: 'x'.repeat(32) }).signalKey).toBe('x'.repeat(32));
    expect(loadConfig({ SIGNALS: 'duplicate_text' }).signals).toEqual(['duplicate_text']);
    expect(loadConfig({ SIGNALS: 'insider,shared_network' }).signals).toEqual(['insider', 'shared_network']);
  });

  it('a signal switched off stores nothing: no network note, no text block', async () => {
    const off = await startTestApp({ SIGNALS: 'insider,burst', TRUST_PROXY: 'true', SCHEDULER_POLL_MS: '200' });
    await off.services.scheduler.start();
    try {
      const shop = await off.createShop({ name: 'Off' });
      const res = await off.fetch(`/embed/${shop.id}/experiences`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.1' },
        body: JSON.stringify({
          rating: 5,
          comment: text(words(20, 'off')),
          name: 'Jan',
          email: 'off@example.com',
          language: 'en',
          website: '',
        }),
      });
      expect(res.status).toBe(202);
      off.services.scheduler.trigger('signals.check');
      for (let i = 0; i < 600 && (await off.db.collection(SIGNAL_REVIEW_QUEUE).countDocuments()) > 0; i++) {
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(await off.db.collection(SIGNAL_REVIEW_QUEUE).countDocuments()).toBe(0);
      expect(await off.db.collection(SIGNAL_NETWORK_QUEUE).countDocuments()).toBe(0);
      expect(await off.db.collection('signal_networks').countDocuments()).toBe(0);
      expect(await off.db.collection('signal_text_recent').countDocuments()).toBe(0);
    } finally {
      await off.services.scheduler.stop();
      await off.close();
    }
  });

  it('the policy page names the checks that are on', async () => {
    const section = async (app: TestApp) => {
      const shop = await app.createShop({ name: 'Policy' });
      const html = await (await app.fetch(`/webshops/${shop.id}/policy?lang=en`)).text();
      return html.slice(html.indexOf('id="signals"'), html.indexOf('</section>', html.indexOf('id="signals"')));
    };
    const all = await section(t);
    expect(all).toContain('copied text (a comment of 12 words or more');
    expect(all).toContain('reviews sent together (three or more reviews of one shop within 30 days');
    expect(all).toContain('a person decides');
    const some = await startTestApp({ SIGNALS: 'insider,burst' });
    try {
      const text = await section(some);
      expect(text).toContain('unusual bursts');
      expect(text).not.toContain('copied text');
      expect(text).not.toContain('reviews sent together');
    } finally {
      await some.close();
    }
  });
});
