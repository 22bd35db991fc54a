// Webhook delivery end to end: reviews written through the operator API reach a real HTTP receiver that verifies
// the signature; failures are retried on a short schedule; the delivery log and the management endpoints.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, withAuth, type TestApp } from '../../test/harness.js';
import { startReceiver, verify, type Receiver } from '../../test/webhook-receiver.js';
import type { Webshop } from '../webshops/store.js';

let t: TestApp;
let receiver: Receiver;
let shop: Webshop;

beforeAll(async () => {
  receiver = await startReceiver();
  t = await startTestApp({
    WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
    WEBHOOK_RETRY_SCHEDULE: '1,2,3',
    WEBHOOK_DISABLE_AFTER: '2',
    SCHEDULER_POLL_MS: '200',
  });
  await t.services.scheduler.start();
  shop = await t.createShop({ name: 'Hooked Shop' });
});
afterAll(async () => {
  await t.services.scheduler.stop();
  await t.close();
  await receiver.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function subscribe(
  path: string,
  topic: string,
  { as = shop, is_active }: { as?: Webshop; is_active?: boolean } = {},
) {
  const res = await t.fetch(withAuth('/api/1.0/webhook.json', as), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ url: receiver.url + path, topic, ...(is_active === undefined ? {} : { is_active }) }),
  });
  const body = await res.json();
  expect(body.status).toBe('success');
  receiver.secrets.set(path, body.data.secret);
  return { id: body.data.webhook_id as number, secret: body.data.secret as string };
}

async function importReview(as: Webshop, fields: Record<string, unknown> = {}): Promise<number> {
  const res = await t.admin(`/admin/api/webshops/${as.id}/reviews`, {
    method: 'POST',
    json: {
      name: 'Jane Doe',
      email: 'jane@example.com',
      rating: 5,
      comment: 'Fast and friendly',
      country: 'NL',
      ...fields,
    },
  });
  expect(res.status).toBe(201);
  return (await res.json()).id;
}

async function ratingOf(as: Webshop, id: number) {
  const { ratings } = await (await t.fetch(withAuth('/api/1.0/ratings.json', as, { limit: '100' }))).json();
  return ratings.find((r: { id: number }) => r.id === id);
}

const api = (path: string, as: Webshop, init: RequestInit & { query?: Record<string, string> } = {}) =>
  t.fetch(withAuth(path, as, init.query), init);

async function logOf(webhookId: number, as = shop, page?: string) {
  const res = await api(`/api/1.0/webhooks/${webhookId}/deliveries.json`, as, { query: page ? { page } : {} });
  expect(res.status).toBe(200);
  return { total: Number(res.headers.get('x-total')), entries: await res.json() };
}

/**
 * The log once `ready` holds for it (or as it is after a minute): an attempt is recorded a moment after its answer
 * arrived, and a busy machine makes that moment longer.
 */
async function logWhen(webhookId: number, as: Webshop, ready: (log: Awaited<ReturnType<typeof logOf>>) => boolean) {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const log = await logOf(webhookId, as);
    if (ready(log) || Date.now() > deadline) return log;
    await sleep(100);
  }
}

describe('delivery', () => {
  it('sends reviews.created with the ratings.json object, signed, to active subscriptions only', async () => {
    const s = await t.createShop();
    await subscribe('/created', 'reviews.created', { as: s });
    await subscribe('/inactive', 'reviews.created', { as: s, is_active: false });
    await subscribe('/updates', 'reviews.updated', { as: s });
    const trigger = vi.spyOn(t.services.scheduler, 'trigger');
    const id = await importReview(s);
    const triggered = [...trigger.mock.calls];
    trigger.mockRestore();
    // Triggered by the write itself, naming its event, not left to a periodic run.
    expect(triggered).toContainEqual(['webhooks.written', `${id}:1`]);
    await receiver.waitFor(() => receiver.at('/created').length === 1);

    const [got] = receiver.at('/created');
    expect(got).toMatchObject({
      topic: 'reviews.created',
      eventId: `${id}:1`,
      contentType: 'application/json',
      verified: true,
    });
    expect(got!.hash).toMatch(/^[0-9a-f]{128}$/);
    expect(JSON.parse(got!.raw)).toEqual(await ratingOf(s, id));
    expect(JSON.parse(got!.raw)).toMatchObject({
      id,
      name: 'Jane Doe',
      email: 'jane@example.com',
      comment: 'Fast and friendly',
    });

    // The receiver's check rejects a body changed on the way, with the genuine signature.
    const tampered = got!.raw.replace('"rating":5', '"rating":1');
    expect(verify(tampered, got!.hash, receiver.secrets.get('/created')!)).toBe(false);
    const replay = await fetch(`${receiver.url}/created`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-hash': got!.hash!, 'x-topic': 'reviews.created' },
      body: tampered,
    });
    expect(replay.status).toBe(401);

    await sleep(300);
    expect(receiver.at('/inactive')).toEqual([]);
    expect(receiver.at('/updates')).toEqual([]);
  });

  it('sends reviews.updated with the changed review and reviews.deleted with what is still known', async () => {
    const s = await t.createShop();
    await subscribe('/u', 'reviews.updated', { as: s });
    await subscribe('/d', 'reviews.deleted', { as: s });
    const id = await importReview(s, { rating: 4 });
    const patched = await t.admin(`/admin/api/reviews/${id}`, {
      method: 'PATCH',
      json: { read: true, comment: 'Edited text' },
    });
    expect(patched.status).toBe(200);
    await receiver.waitFor(() => receiver.at('/u').length === 1);
    const updated = receiver.at('/u')[0]!;
    expect(updated).toMatchObject({ topic: 'reviews.updated', eventId: `${id}:2`, verified: true });
    expect(JSON.parse(updated.raw)).toEqual(await ratingOf(s, id));
    expect(JSON.parse(updated.raw)).toMatchObject({ read: true, comment: 'Edited text' });

    expect((await t.admin(`/admin/api/reviews/${id}`, { method: 'DELETE' })).status).toBe(204);
    await receiver.waitFor(() => receiver.at('/d').length === 1);
    const deleted = receiver.at('/d')[0]!;
    expect(deleted).toMatchObject({ topic: 'reviews.deleted', eventId: `${id}:3`, verified: true });
    const body = JSON.parse(deleted.raw);
    expect(body).toMatchObject({ id, deleted: true, rating: 4, country: 'NL', read: true });
    expect(body).not.toHaveProperty('name');
    expect(body).not.toHaveProperty('email');
    expect(body).not.toHaveProperty('comment');
    expect(receiver.at('/u')).toHaveLength(1);
  });

  it('retries a failing receiver on the schedule (no redirects followed) until it answers 2xx, and logs every attempt', async () => {
    const s = await t.createShop();
    const { id: webhookId } = await subscribe('/flaky', 'reviews.created', { as: s });
    receiver.responders.set('/flaky', (_req, n) =>
      n === 1 ? { status: 302, headers: { location: `${receiver.url}/elsewhere` } } : n === 2 ? 500 : 200,
    );
    const id = await importReview(s);
    await receiver.waitFor(() => receiver.at('/flaky').length === 3);
    const attempts = receiver.at('/flaky');
    expect(new Set(attempts.map((a) => a.eventId))).toEqual(new Set([`${id}:1`]));
    expect(new Set(attempts.map((a) => a.raw)).size).toBe(1);
    expect(new Set(attempts.map((a) => a.hash)).size).toBe(1);
    // Schedule 1,2,3 seconds: the second attempt a second after the first, the third two seconds later, never
    // sooner; and woken for, not left to the periodic run (every 30 s, it could not come within ten times the
    // schedule after both). Ten times, not the schedule itself: a busy machine is late, never early.
    const gaps = [attempts[1]!.at - attempts[0]!.at, attempts[2]!.at - attempts[1]!.at];
    expect(gaps[0]).toBeGreaterThanOrEqual(900);
    expect(gaps[0]).toBeLessThan(10 * 1000);
    expect(gaps[1]).toBeGreaterThanOrEqual(1900);
    expect(gaps[1]).toBeLessThan(10 * 2000);
    expect(receiver.at('/elsewhere')).toEqual([]);

    // The page's count and its entries are two reads: wait until both show the third attempt.
    const { total, entries } = await logWhen(webhookId, s, (log) => log.total >= 3 && log.entries.length >= 3);
    expect(total).toBe(3);
    expect(entries.map((e: { attempt: number; http_status: number }) => [e.attempt, e.http_status])).toEqual([
      [3, 200],
      [2, 500],
      [1, 302],
    ]);
    expect(entries[0]).toEqual({
      time: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
      topic: 'reviews.created',
      event_id: `${id}:1`,
      attempt: 3,
      http_status: 200,
      error: null,
      duration_ms: expect.any(Number),
      redelivery: false,
    });
    await sleep(1500);
    expect(receiver.at('/flaky')).toHaveLength(3);
  });

  it('marks a delivery failed after the last retry, switches the subscription off after 2 failed events, and redelivers once switched on', async () => {
    const s = await t.createShop();
    // A port nobody listens on: every attempt is a network error.
    const closed = await startReceiver();
    const deadUrl = `${closed.url}/gone`;
    await closed.close();
    const res = await api('/api/1.0/webhook.json', s, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: deadUrl, topic: 'reviews.created' }),
    });
    const { data } = await res.json();
    const webhookId = data.webhook_id as number;
    const first = await importReview(s, { name: 'First' });
    const second = await importReview(s, { name: 'Second' });

    // 1 + 2 + 3 seconds of retries, then failed for good; two failed events switch the subscription off.
    const deadline = Date.now() + 60_000;
    let view: { data: { is_active: boolean; disabled_reason: string | null } } | undefined;
    while (Date.now() < deadline) {
      view = await (await api(`/api/1.0/webhooks/${webhookId}.json`, s)).json();
      if (!view!.data.is_active) break;
      await sleep(200);
    }
    expect(view!.data.is_active).toBe(false);
    expect(view!.data.disabled_reason).toMatch(
      /^Switched off after 2 events in a row could not be delivered \(last: ECONNREFUSED/,
    );
    const { total, entries } = await logOf(webhookId, s);
    expect(total).toBe(8); // 4 attempts for each event
    expect(
      entries.every(
        (e: { http_status: null; error: string }) => e.http_status === null && /ECONNREFUSED/.test(e.error),
      ),
    ).toBe(true);
    expect(
      entries
        .filter((e: { event_id: string }) => e.event_id === `${first}:1`)
        .map((e: { attempt: number }) => e.attempt),
    ).toEqual([4, 3, 2, 1]);
    const stored = await t.services.webhookDeliveries.find(webhookId, `${second}:1`);
    expect(stored).toMatchObject({ status: 'failed', attempts: 4 });

    // Switched off: new events are not sent, and redelivery is refused until it is switched on again.
    await importReview(s, { name: 'Third' });
    const refused = await api(`/api/1.0/webhooks/${webhookId}/redeliver.json`, s, {
      method: 'POST',
      query: { event_id: `${first}:1` },
    });
    expect(refused.status).toBe(400);

    const patched = await api(`/api/1.0/webhooks/${webhookId}.json`, s, {
      method: 'PATCH',
      body: JSON.stringify({ url: `${receiver.url}/back`, is_active: true }),
    });
    expect(patched.status).toBe(200);
    const patchedBody = await patched.json();
    expect(patchedBody).toMatchObject({
      status: 'success',
      message: 'Webhook subscription updated',
      data: { id: webhookId, url: `${receiver.url}/back`, is_active: true, disabled_reason: null },
    });
    receiver.secrets.set('/back', patchedBody.data.secret);

    const again = await api(`/api/1.0/webhooks/${webhookId}/redeliver.json`, s, {
      method: 'POST',
      query: { event_id: `${first}:1` },
    });
    expect(await again.json()).toEqual({ status: 'success', message: 'Redelivery queued' });
    await receiver.waitFor(() => receiver.at('/back').length === 1);
    expect(receiver.at('/back')[0]).toMatchObject({ eventId: `${first}:1`, verified: true });
    expect(JSON.parse(receiver.at('/back')[0]!.raw)).toMatchObject({ id: first, name: 'First' });
    const log = await logWhen(webhookId, s, (l) => l.entries[0]?.attempt === 5);
    expect(log.entries[0]).toMatchObject({ event_id: `${first}:1`, attempt: 5, http_status: 200, redelivery: true });
    // The event written while it was off was never sent.
    expect(receiver.at('/back')).toHaveLength(1);
  });

  it('pages the delivery log, 20 per page, newest first', async () => {
    const s = await t.createShop();
    const { id: webhookId } = await subscribe('/many', 'reviews.created', { as: s });
    for (let i = 0; i < 23; i++) await importReview(s, { name: `R${i}` });
    await receiver.waitFor(() => receiver.at('/many').length === 23);
    const page1 = await logWhen(webhookId, s, (log) => log.total >= 23);
    expect(page1.total).toBe(23);
    expect(page1.entries).toHaveLength(20);
    const page2 = await logOf(webhookId, s, '2');
    expect(page2.entries).toHaveLength(3);
    const times = [...page1.entries, ...page2.entries].map((e: { time: string }) => e.time);
    expect(times).toEqual([...times].sort().reverse());
  });
});

describe('managing subscriptions', () => {
  let other: Webshop;
  let webhookId: number;
  beforeAll(async () => {
    other = await t.createShop({ name: 'Other Shop' });
    ({ id: webhookId } = await subscribe('/managed', 'reviews.created'));
  });

  it('reads one subscription with its switch-off reason', async () => {
    const res = await api(`/api/1.0/webhooks/${webhookId}.json`, shop);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      status: 'success',
      message: 'Webhook subscription retrieved',
      data: {
        id: webhookId,
        topic: 'reviews.created',
        url: `${receiver.url}/managed`,
        secret: expect.stringMatching(/^[0-9a-f]{64}$/),
        is_active: true,
        disabled_reason: null,
      },
    });
  });

  it.each([
    ['GET', `/deliveries.json`],
    ['GET', `.json`],
    ['PATCH', `.json`],
    ['DELETE', `.json`],
    ['POST', `/redeliver.json`],
  ])("answers 404 for another shop's subscription (%s %s) and 401 without credentials", async (method, suffix) => {
    const path = `/api/1.0/webhooks/${webhookId}${suffix}`;
    const init = { method, body: method === 'PATCH' ? JSON.stringify({ is_active: false }) : undefined };
    const res = await api(path, other, { ...init, query: { event_id: '1:1' } });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ status: 'error', message: `Webhook ${webhookId} not found.` });
    const anonymous = await t.fetch(`${path}?id=${shop.id}&code=wrong`, init);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toEqual({ status: 'error', message: 'Unauthorized' });
  });

  it('answers 404 for ids that are not subscriptions', async () => {
    for (const id of ['0', 'abc', '99999999']) {
      const res = await api(`/api/1.0/webhooks/${id}.json`, shop);
      expect(res.status).toBe(404);
    }
  });

  it.each([
    ['an empty object', {}, /at least one of url, topic, is_active/],
    ['is_active as a string', { is_active: 'true' }, 'is_active: must be true or false'],
    ['an unknown topic', { topic: 'orders.created' }, /^topic: must be one of/],
    ['a url as an operator object', { url: { $ne: '' } }, 'url: must be a string'],
    ['a private url', { url: 'https://10.0.0.1/hook' }, /^url: 10\.0\.0\.1 is a loopback, private/],
    ['an http url', { url: 'http://hooks.example/hook' }, 'url: must be an https:// URL'],
  ])('refuses a PATCH with %s (400)', async (_name, body, message) => {
    const res = await api(`/api/1.0/webhooks/${webhookId}.json`, shop, { method: 'PATCH', body: JSON.stringify(body) });
    expect(res.status).toBe(400);
    const answer = await res.json();
    expect(answer.status).toBe('error');
    if (typeof message === 'string') expect(answer.message).toBe(message);
    else expect(answer.message).toMatch(message);
  });

  it.each([
    ['no event_id', {}, 400, 'The parameter event_id is required.'],
    ['a malformed event_id', { event_id: 'abc' }, 400, /must be an event id/],
    ['an unknown event', { event_id: '999999:1' }, 404, /Event 999999:1 was not sent to webhook/],
  ])('refuses a redelivery with %s', async (_name, query, status, message) => {
    const res = await api(`/api/1.0/webhooks/${webhookId}/redeliver.json`, shop, { method: 'POST', query });
    expect(res.status).toBe(status);
    expect((await res.json()).message).toMatch(message);
  });

  it('refuses an operator object as event_id', async () => {
    const res = await t.fetch(`${withAuth(`/api/1.0/webhooks/${webhookId}/redeliver.json`, shop)}&event_id[$ne]=x`, {
      method: 'POST',
    });
    expect(res.status).toBe(400);
  });

  it('deletes a subscription with its log; it then receives nothing', async () => {
    const s = await t.createShop();
    const { id } = await subscribe('/doomed', 'reviews.created', { as: s });
    await importReview(s);
    await receiver.waitFor(() => receiver.at('/doomed').length === 1);
    // The attempt is recorded after the receiver answered.
    expect((await logWhen(id, s, (log) => log.total > 0)).total).toBe(1);
    const res = await api(`/api/1.0/webhooks/${id}.json`, s, { method: 'DELETE' });
    expect(await res.json()).toEqual({ status: 'success', message: 'Webhook subscription deleted' });
    expect((await api(`/api/1.0/webhooks/${id}/deliveries.json`, s)).status).toBe(404);
    expect(await (await api('/api/1.0/webhooks.json', s)).json()).toEqual([]);
    expect(await t.services.webhookDeliveries.log.countDocuments({ subscriptionId: id })).toBe(0);
    await importReview(s);
    await sleep(500);
    expect(receiver.at('/doomed')).toHaveLength(1);
  });
});
