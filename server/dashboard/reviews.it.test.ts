import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, withAuth, type TestApp } from '../../test/harness.js';
import { signedInAgent } from '../accounts/test-session.js';
import { buildApp } from '../app.js';
import type { Role } from '../accounts/roles.js';
import type { Review, NewReview } from '../reviews/model.js';
import type { Webshop } from '../webshops/store.js';
import { queuedEvents } from '../../test/webhook-events.js';

let t: TestApp;
let shop: Webshop;
let otherShop: Webshop;
const DAY = 86_400_000;

/** Headers of a signed-in user with `role` in `shop` (cookie, CSRF token, the service's origin). */
type Agent = { headers: Record<string, string>; userId: string; email: string };
const agents = new Map<string, Agent>();
async function as(role: Role, s: Webshop = shop): Promise<Agent> {
  const key = `${role}:${s.id}`;
  if (!agents.has(key)) {
    const email = `${role}-${s.id}@merchant.example`;
    const session = await signedInAgent(t, { email, shopId: s.id, role });
    agents.set(key, { headers: session.headers, userId: String(session.userId), email });
  }
  return agents.get(key)!;
}

async function call(agent: Agent | null, method: string, path: string, body?: unknown): Promise<Response> {
  const headers: Record<string, string> = { ...(agent?.headers ?? {}) };
  if (body !== undefined) headers['content-type'] = 'application/json';
  return t.fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
}

const list = async (query = '', s: Webshop = shop, role: Role = 'owner') => {
  const res = await call(await as(role, s), 'GET', `/dashboard/api/shops/${s.id}/reviews${query ? `?${query}` : ''}`);
  expect(res.status).toBe(200);
  return (await res.json()) as { items: Record<string, unknown>[]; total: number; page: number; page_size: number };
};
const ids = async (query: string) => (await list(query)).items.map((i) => i.id);

const write = (s: Webshop, review: Partial<NewReview> & Pick<NewReview, 'name'>) =>
  t.services.reviews.create(s.id, { email: 'writer@example.com', rating: 4, language: 'en', ...review });

let r: Record<string, Review>;
beforeAll(async () => {
  t = await startTestApp();
  shop = await t.createShop({ name: 'Dashboard Shop' });
  otherShop = await t.createShop({ name: 'Someone Else' });
  const now = Date.now();
  r = {
    old: await write(shop, {
      name: 'Olga Old',
      rating: 2,
      comment: 'Slow delivery.',
      created: new Date(now - 40 * DAY),
      read: true,
    }),
    german: await write(shop, {
      name: 'Gerd',
      rating: 5,
      language: 'de',
      comment: 'Sehr gut (wirklich) .* [1]',
      created: new Date(now - 20 * DAY),
      read: true,
    }),
    quarantined: await write(shop, {
      name: 'Quentin',
      rating: 1,
      comment: 'SPAMMY words',
      quarantine: true,
      created: new Date(now - 10 * DAY),
    }),
    awaiting: await write(shop, {
      name: 'Anna Await',
      rating: 3,
      comment: 'Waiting for my confirmation',
      quarantine: true,
      confirmToken: 'c'.repeat(32),
      created: new Date(now - 5 * DAY),
    }),
    deleted: await write(shop, { name: 'Dirk', rating: 1, comment: 'Gone soon', created: new Date(now - 3 * DAY) }),
    newest: await write(shop, {
      name: 'Nina New',
      rating: 4,
      comment: 'Great VALUE, fast delivery',
      created: new Date(now - DAY),
    }),
    foreign: await write(otherShop, { name: 'Fay Foreign', rating: 5, comment: 'Great value elsewhere' }),
  };
  await t.services.reviews.softDelete(r.deleted!.id);
});
afterAll(() => t.close());

describe('GET /dashboard/api/shops/:shopId/reviews', () => {
  it('lists every review of the shop in every status, newest first, without the writer’s address', async () => {
    const page = await list();
    expect(page).toMatchObject({ total: 6, page: 1, page_size: 20 });
    expect(page.items.map((i) => i.id)).toEqual(
      ['newest', 'deleted', 'awaiting', 'quarantined', 'german', 'old'].map((k) => r[k]!.id),
    );
    expect(page.items.map((i) => i.status)).toEqual([
      'published',
      'deleted',
      'awaiting_confirmation',
      'quarantined',
      'published',
      'published',
    ]);
    const newest = page.items[0]!;
    expect(newest).toMatchObject({
      name: 'Nina New',
      rating: 4,
      comment: 'Great VALUE, fast delivery',
      language: 'en',
      read: false,
      reply: null,
      origin: r.newest!.origin,
    });
    expect(newest.created).toBe(r.newest!.created.toISOString());
    expect(JSON.stringify(page)).not.toContain('writer@example.com');
    expect(page.items.every((i) => !('email' in i))).toBe(true);
  });

  it('pages with page and page_size', async () => {
    const first = await list('page_size=2');
    const second = await list('page_size=2&page=2');
    const past = await list('page_size=2&page=9');
    expect([first.total, second.total, past.total]).toEqual([6, 6, 6]);
    expect(first.items.map((i) => i.id)).toEqual([r.newest!.id, r.deleted!.id]);
    expect(second.items.map((i) => i.id)).toEqual([r.awaiting!.id, r.quarantined!.id]);
    expect(second).toMatchObject({ page: 2, page_size: 2 });
    expect(past.items).toEqual([]);
  });

  it('filters by rating, status, language, reply, unread and date range', async () => {
    expect(await ids('rating=1')).toEqual([r.deleted!.id, r.quarantined!.id]);
    expect(await ids('status=published')).toEqual([r.newest!.id, r.german!.id, r.old!.id]);
    expect(await ids('status=quarantined')).toEqual([r.quarantined!.id]);
    expect(await ids('status=awaiting_confirmation')).toEqual([r.awaiting!.id]);
    expect(await ids('status=deleted')).toEqual([r.deleted!.id]);
    expect(await ids('language=de')).toEqual([r.german!.id]);
    expect(await ids('unread=1&status=published')).toEqual([r.newest!.id]);
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    expect(await ids(`from=${day(r.german!.created.getTime())}&to=${day(r.awaiting!.created.getTime())}`)).toEqual([
      r.awaiting!.id,
      r.quarantined!.id,
      r.german!.id,
    ]);
    // An unset form field is no filter.
    expect((await list('rating=&status=&q=')).total).toBe(6);
  });

  it('searches comment and name case-insensitively, taking the text literally (no patterns)', async () => {
    expect(await ids('q=great%20value')).toEqual([r.newest!.id]);
    expect(await ids('q=nina')).toEqual([r.newest!.id]);
    expect(await ids(`q=${encodeURIComponent('(wirklich) .* [1]')}`)).toEqual([r.german!.id]);
    for (const pattern of ['.*', '^', '[', '(', '\\', '$where', '{"$ne":null}']) {
      const found = await ids(`q=${encodeURIComponent(pattern)}`);
      expect(found, pattern).toEqual(pattern === '.*' || pattern === '(' || pattern === '[' ? [r.german!.id] : []);
    }
    expect(await ids('q=value&rating=4&status=published')).toEqual([r.newest!.id]);
  });

  it('answers 400 invalid, naming the parameter, for bad filters', async () => {
    const owner = await as('owner');
    for (const [query, field] of [
      ['rating=6', 'rating'],
      ['rating=abc', 'rating'],
      ['rating=1&rating=2', 'rating'],
      ['status=hidden', 'status'],
      ['page=0', 'page'],
      ['page_size=101', 'page_size'],
      ['language=english', 'language'],
      ['reply=maybe', 'reply'],
      ['unread=yes', 'unread'],
      ['from=2024-02-30', 'from'],
      ['from=2024-05-02&to=2024-05-01', 'to'],
      [`q=${'x'.repeat(201)}`, 'q'],
      ['q[$regex]=.*', 'q'],
      ['sort=rating', 'sort'],
      ['__proto__=1', '__proto__'],
    ] as const) {
      const res = await call(owner, 'GET', `/dashboard/api/shops/${shop.id}/reviews?${query}`);
      expect(res.status, query).toBe(400);
      const body = await res.json();
      expect(body.error.code, query).toBe('invalid');
      expect(body.error.message, query).toMatch(new RegExp(`\\b${field.replace('$', '\\$')}\\b`));
    }
  });

  it('shows a review another process wrote, once its counter moved', async () => {
    await list();
    // A second process on the same database: its write does not reach this process's listeners.
    const other = await buildApp({ config: t.services.config, db: t.db, log: t.services.log });
    const written = await other.services.reviews.create(shop.id, {
      name: 'Pia Process',
      email: 'p@example.com',
      rating: 5,
      language: 'nl',
      comment: 'Elsewhere',
    });
    // An answer waits for the read of the changes only so long (review-view.ts): on a busy machine a later one shows it.
    await expect
      .poll(async () => (await list('language=nl')).items.map((i) => i.id), { timeout: 10_000 })
      .toEqual([written.id]);
    await other.services.reviews.softDelete(written.id);
    await expect
      .poll(async () => (await list('language=nl')).items.map((i) => i.status), { timeout: 10_000 })
      .toEqual(['deleted']);
  });

  it('answers 401 without a session and 404 for a shop the user is no member of', async () => {
    expect((await call(null, 'GET', `/dashboard/api/shops/${shop.id}/reviews`)).status).toBe(401);
    const res = await call(await as('owner', otherShop), 'GET', `/dashboard/api/shops/${shop.id}/reviews`);
    expect(res.status).toBe(404);
    expect((await res.json()).error.code).toBe('not_found');
  });
});

describe('replies from the dashboard', () => {
  const replyPath = (review: Review) => `/dashboard/api/shops/${shop.id}/reviews/${review.id}/reply`;
  const trail = async (reviewId: number) =>
    (await t.services.audit.list({ shopId: shop.id, limit: 100 })).filter((e) => e.target === `review:${reviewId}`);

  it('replies as the classic endpoint does (public reply, revision, notification queued), audited with the user', async () => {
    const review = await write(shop, { name: 'Rita Reply', comment: 'Where is my parcel?' });
    const manager = await as('manager');
    const res = await call(manager, 'POST', replyPath(review), { text: '  Sorry, it left today.  ', notify: true });
    expect(res.status).toBe(200);
    const item = await res.json();
    expect(item).toMatchObject({ id: review.id, reply: { text: 'Sorry, it left today.', notify: true } });
    const stored = (await t.services.reviews.get(review.id))!;
    expect(stored.reply).toMatchObject({ text: 'Sorry, it left today.', notify: true, notified: null, revision: 1 });
    // The reviewer's e-mail is queued by the write, as for POST /api/1.0/review_replies.json.
    expect(await t.db.collection('review_mail').countDocuments({ _id: `${review.id}:reply:1` as never })).toBe(1);
    const ratings = await (await t.fetch(withAuth('/api/1.0/ratings.json', shop, { limit: '100' }))).json();
    expect(ratings.ratings.find((x: { id: number }) => x.id === review.id).reply).toBe('Sorry, it left today.');
    // The list shows it at once.
    expect((await list('q=parcel')).items[0]!.reply).toMatchObject({ text: 'Sorry, it left today.' });
    expect(await ids('reply=with')).toContain(review.id);
    expect(await ids('reply=without')).not.toContain(review.id);
    const [entry] = await trail(review.id);
    expect(entry).toMatchObject({
      action: 'reply.created',
      actor: { kind: 'user', id: manager.userId },
      details: { revision: 1, notify: true },
    });
  });

  it('lets support reply but not e-mail the reviewer: notify true is refused with 403 and changes nothing', async () => {
    const review = await write(shop, { name: 'Sue Support', comment: 'Wrong colour' });
    const support = await as('support');
    const refused = await call(support, 'POST', replyPath(review), { text: 'We will swap it.', notify: true });
    expect(refused.status).toBe(403);
    expect((await refused.json()).error).toMatchObject({
      code: 'forbidden',
      message: expect.stringMatching(/support.*notify/),
    });
    expect((await t.services.reviews.get(review.id))!.reply).toBeNull();
    expect(await t.db.collection('review_mail').countDocuments({ 'payload.reviewId': review.id })).toBe(0);
    expect(await trail(review.id)).toEqual([]);

    for (const body of [{ text: 'We will swap it.' }, { text: 'We will swap it today.', notify: false }]) {
      const res = await call(support, 'POST', replyPath(review), body);
      expect(res.status).toBe(200);
      expect((await res.json()).reply).toMatchObject({ text: body.text, notify: false });
    }
    expect(await t.db.collection('review_mail').countDocuments({ 'payload.reviewId': review.id })).toBe(0);
  });

  it('edits the reply (a pending notification carries the new text) and deletes it, each audited', async () => {
    const review = await write(shop, { name: 'Edda Edit', comment: 'Nice' });
    const owner = await as('owner');
    expect((await call(owner, 'PATCH', replyPath(review), { text: 'Nothing to edit yet' })).status).toBe(409);
    await call(owner, 'POST', replyPath(review), { text: 'Thanks!', notify: true });
    const edited = await call(owner, 'PATCH', replyPath(review), { text: 'Thank you!' });
    expect(edited.status).toBe(200);
    expect((await edited.json()).reply).toMatchObject({ text: 'Thank you!', notify: true });
    expect((await t.services.reviews.get(review.id))!.reply).toMatchObject({
      text: 'Thank you!',
      revision: 2,
      notified: null,
    });
    const removed = await call(owner, 'DELETE', replyPath(review));
    expect(removed.status).toBe(200);
    expect((await removed.json()).reply).toBeNull();
    expect((await t.services.reviews.get(review.id))!.reply).toBeNull();
    expect((await trail(review.id)).map((e) => e.action).sort()).toEqual([
      'reply.created',
      'reply.deleted',
      'reply.edited',
    ]);
  });

  it('validates the reply', async () => {
    const owner = await as('owner');
    for (const [body, field] of [
      [{ text: '   ' }, 'text'],
      [{ text: 'x'.repeat(10_001) }, 'text'],
      [{ text: { $ne: '' } }, 'text'],
      [{ text: 'ok', notify: 'yes' }, 'notify'],
      [{ reply: 'wrong name' }, 'text'],
      ['not json', 'body'],
    ] as const) {
      const res = await call(owner, 'POST', replyPath(r.newest!), body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      const error = (await res.json()).error;
      expect(error.code).toBe('invalid');
      expect(error.message).toMatch(new RegExp(`^${field}`));
    }
    expect((await t.services.reviews.get(r.newest!.id))!.reply).toBeNull();
  });

  it("answers 404 for another shop's review, a deleted one and an unknown id, and changes nothing", async () => {
    const owner = await as('owner');
    for (const id of [r.foreign!.id, r.deleted!.id, 987654321, 'abc']) {
      for (const [method, path, body] of [
        ['POST', 'reply', { text: 'Hi' }],
        ['PATCH', 'reply', { text: 'Hi' }],
        ['DELETE', 'reply', undefined],
        ['POST', 'read', { read: true }],
        ['POST', 'report', { ground: 'spam' }],
      ] as const) {
        const res = await call(owner, method, `/dashboard/api/shops/${shop.id}/reviews/${id}/${path}`, body);
        expect(res.status, `${method} ${id} ${path}`).toBe(404);
      }
    }
    expect((await t.services.reviews.get(r.foreign!.id))!).toMatchObject({ reply: null, read: false });
    const reports = await t.services.moderation.list({ status: 'all', limit: 100 });
    expect(reports.filter((x) => [r.foreign!.id, r.deleted!.id].includes(x.reviewId))).toEqual([]);
  });

  it('refuses a change without the CSRF token', async () => {
    const owner = await as('owner');
    const { 'x-csrf-token': _csrf, ...withoutToken } = Object.fromEntries(
      Object.entries(owner.headers).map(([k, v]) => [k.toLowerCase(), v]),
    );
    const res = await call({ ...owner, headers: withoutToken }, 'POST', replyPath(r.newest!), { text: 'Hi' });
    expect(res.status).toBe(403);
    expect((await t.services.reviews.get(r.newest!.id))!.reply).toBeNull();
  });
});

describe('mark read', () => {
  it('marks read and unread without a webhook event, and the unread filter follows', async () => {
    const review = await write(shop, { name: 'Udo Unread', comment: 'Hello' });
    const events = async () => (await queuedEvents(t.db, review.id)).length;
    const before = await events();
    const support = await as('support');
    const path = `/dashboard/api/shops/${shop.id}/reviews/${review.id}/read`;
    expect(await ids('unread=1')).toContain(review.id);
    const res = await call(support, 'POST', path, { read: true });
    expect(res.status).toBe(200);
    expect((await res.json()).read).toBe(true);
    expect(await ids('unread=1')).not.toContain(review.id);
    expect((await t.services.reviews.get(review.id))!.read).toBe(true);
    // ratings.json (the merchant's list) shows it too.
    const ratings = await (await t.fetch(withAuth('/api/1.0/ratings.json', shop, { limit: '100' }))).json();
    expect(ratings.ratings.find((x: { id: number }) => x.id === review.id).read).toBe(true);
    await call(support, 'POST', path, { read: false });
    expect(await ids('unread=1')).toContain(review.id);
    expect(await events()).toBe(before);
    expect((await call(support, 'POST', path, { read: 'yes' })).status).toBe(400);
  });
});

describe('report to the operator', () => {
  it('files a report in the moderation queue with the user as reporter, audited', async () => {
    const review = await write(shop, { name: 'Troll', comment: 'I never bought here, just angry' });
    const support = await as('support');
    const res = await call(support, 'POST', `/dashboard/api/shops/${shop.id}/reviews/${review.id}/report`, {
      ground: 'not_experience',
      text: 'No order under this name.',
    });
    expect(res.status).toBe(201);
    const { report } = await res.json();
    expect(report).toMatchObject({ review_id: review.id, ground: 'not_experience', status: 'open' });
    const stored = await t.services.moderation.get(report.id);
    expect(stored).toMatchObject({
      reviewId: review.id,
      shopId: shop.id,
      text: 'No order under this name.',
      email: support.email,
      status: 'open',
    });
    const [entry] = (await t.services.audit.list({ shopId: shop.id, limit: 100 })).filter(
      (e) => e.action === 'report.created',
    );
    expect(entry).toMatchObject({
      actor: { kind: 'user', id: support.userId },
      target: `review:${review.id}`,
      details: { ground: 'not_experience', via: 'dashboard' },
    });
    // The review stays as it is: only the operator decides.
    expect((await t.services.reviews.get(review.id))!.published).toBe(true);
  });

  it('requires a ground from the list', async () => {
    const owner = await as('owner');
    for (const body of [{}, { ground: 'i_dont_like_it' }, { ground: 'spam', text: 'x'.repeat(2001) }]) {
      const res = await call(owner, 'POST', `/dashboard/api/shops/${shop.id}/reviews/${r.newest!.id}/report`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect((await res.json()).error.code).toBe('invalid');
    }
  });
});
