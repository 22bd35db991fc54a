import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, withAuth, type TestApp } from '../../test/harness.js';
import type { Webshop } from '../webshops/store.js';
import { DAY_MS } from '../time.js';
import type { Invitation } from '../invitations/store.js';
import type { NewConsent } from './store.js';

const PATH = '/api/2.0/order_permissions.json';

let t: TestApp;
let shop: Webshop;
beforeAll(async () => {
  t = await startTestApp();
  shop = await t.createShop();
});
afterAll(() => t.close());

const consent = (overrides: Partial<NewConsent> = {}): NewConsent => ({
  shopId: shop.id,
  order: '1001',
  email: 'jane@example.com',
  firstName: 'Jane',
  inviteDelay: 5,
  choice: 'ask_later',
  language: 'nl',
  signed: true,
  textVersion: '2025-01',
  ...overrides,
});

describe('ConsentStore.record', () => {
  it('stores a receipt with a normalised address and a trimmed order number, and reads it back', async () => {
    const recorded = await t.services.consents.record(consent({ order: ' R-1 ', email: ' Jane@Example.COM ' }));
    expect(recorded).toMatchObject({ order: 'R-1', email: 'Jane@example.com', created: expect.any(Date) });
    expect(await t.services.consents.get(shop.id, 'R-1')).toEqual(recorded);
    expect(await t.services.consents.get(shop.id, 'R-2')).toBeNull();
  });

  it('keeps one receipt per order: the latest choice replaces the earlier one', async () => {
    await t.services.consents.record(consent({ order: 'R-3', choice: 'ask_later' }));
    await t.services.consents.record(consent({ order: 'R-3', choice: 'write_now' }));
    expect(await t.db.collection('consents').countDocuments({ shopId: shop.id, order: 'R-3' })).toBe(1);
    expect((await t.services.consents.get(shop.id, 'R-3'))!.choice).toBe('write_now');
  });

  it('never lets an unsigned receipt replace a signed one, but a signed one replaces an unsigned one', async () => {
    await t.services.consents.record(consent({ order: 'R-4', choice: 'write_now', signed: true }));
    const kept = await t.services.consents.record(consent({ order: 'R-4', choice: 'ask_later', signed: false }));
    expect(kept).toMatchObject({ choice: 'write_now', signed: true });
    expect((await t.services.consents.get(shop.id, 'R-4'))!.choice).toBe('write_now');

    await t.services.consents.record(consent({ order: 'R-5', choice: 'ask_later', signed: false }));
    await t.services.consents.record(consent({ order: 'R-5', choice: 'ask_later', signed: false, firstName: 'Again' }));
    await t.services.consents.record(consent({ order: 'R-5', choice: 'write_now', signed: true }));
    expect(await t.services.consents.get(shop.id, 'R-5')).toMatchObject({ choice: 'write_now', signed: true });
  });

  it('survives concurrent first recordings of the same order', async () => {
    await Promise.all(Array.from({ length: 10 }, () => t.services.consents.record(consent({ order: 'R-6' }))));
    expect(await t.db.collection('consents').countDocuments({ shopId: shop.id, order: 'R-6' })).toBe(1);
  });
});

describe('GET /api/2.0/order_permissions.json', () => {
  beforeAll(async () => {
    await t.services.consents.record(consent({ order: '000777', choice: 'write_now' }));
  });

  it('answers 200 with has_consent true (a JSON boolean) for a recorded order', async () => {
    const res = await t.fetch(withAuth(PATH, shop, { orderNumber: '000777' }));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await res.text()).toBe('{"has_consent":true}');
  });

  it('answers has_consent false for an unknown order, another number form, or another shop', async () => {
    for (const orderNumber of ['424242', '777']) {
      const res = await t.fetch(withAuth(PATH, shop, { orderNumber }));
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ has_consent: false });
    }
    const other = await t.createShop();
    expect(await (await t.fetch(withAuth(PATH, other, { orderNumber: '000777' }))).json()).toEqual({
      has_consent: false,
    });
  });

  it.each([
    ['no orderNumber', () => withAuth(PATH, shop)],
    ['an empty orderNumber', () => withAuth(PATH, shop, { orderNumber: '' })],
    ['no id', () => `${PATH}?code=${shop.code}&orderNumber=1`],
    ['no code', () => `${PATH}?id=${shop.id}&orderNumber=1`],
  ])('answers 400 with the missing-variables message for %s', async (_name, path) => {
    const res = await t.fetch(path());
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ status: 'error', message: 'Not all obligated variables are set.' });
  });

  it('answers 400 for an orderNumber given twice', async () => {
    const res = await t.fetch(`${withAuth(PATH, shop)}&orderNumber=1&orderNumber=2`);
    expect(res.status).toBe(400);
    expect((await res.json()).status).toBe('error');
  });

  it.each([
    ['a wrong code', () => withAuth(PATH, { id: shop.id, code: 'f'.repeat(32) }, { orderNumber: '000777' })],
    ['an unknown shop', () => withAuth(PATH, { id: 987654, code: shop.code }, { orderNumber: '000777' })],
    ['an injected id', () => `${PATH}?id=${shop.id}&id=1&code=${shop.code}&orderNumber=000777`],
  ])('answers 401 for %s', async (_name, path) => {
    const res = await t.fetch(path());
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ status: 'error', message: 'Incorrect authentication credentials.' });
  });

  it('answers an unexpected failure with 500, not a 200 without has_consent', async () => {
    const spy = vi.spyOn(t.services.consents, 'get').mockRejectedValueOnce(new Error('database gone'));
    const res = await t.fetch(withAuth(PATH, shop, { orderNumber: '000777' }));
    spy.mockRestore();
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({
      status: 'error',
      message: 'Unexpected error while processing. Please contact Service.',
    });
  });

  it('is served under /api only', async () => {
    expect((await t.fetch(withAuth('/2.0/order_permissions.json', shop, { orderNumber: '000777' }))).status).toBe(404);
  });
});

describe('Add invitation after the Privacy First pop-up', () => {
  async function invite(body: Record<string, string>) {
    const res = await t.fetch(withAuth('/api/1.0/invitations.json', shop), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(body).toString(),
    });
    return res.json();
  }
  const invitation = async (order: string) =>
    t.db.collection<Invitation>('invitations').findOne({ shopId: shop.id, order });

  it('queues nothing when the customer chose to write now and wrote the review', async () => {
    await t.services.consents.record(consent({ order: 'P-1', choice: 'write_now' }));
    await t.services.reviews.create(shop.id, {
      name: 'Jane',
      email: 'jane@example.com',
      rating: 5,
      language: 'nl',
      order: 'P-1',
      source: 'popup',
    });
    expect(await invite({ email: 'jane@example.com', order: 'P-1' })).toEqual({
      status: 'success',
      message: 'No invitation queued: the customer already wrote a review for this order.',
    });
    expect(await invitation('P-1')).toBeNull();
  });

  it('also queues nothing when the customer chose Ask me later and wrote the review anyway', async () => {
    await t.services.consents.record(consent({ order: 'P-5', choice: 'ask_later' }));
    await t.services.reviews.create(shop.id, {
      name: 'Jane',
      email: 'jane@example.com',
      rating: 4,
      language: 'nl',
      order: 'P-5',
    });
    expect((await invite({ email: 'jane@example.com', order: 'P-5' })).message).toBe(
      'No invitation queued: the customer already wrote a review for this order.',
    );
    expect(await invitation('P-5')).toBeNull();
  });

  it('queues as usual when the customer chose to write now but wrote nothing', async () => {
    await t.services.consents.record(consent({ order: 'P-2', choice: 'write_now' }));
    expect((await invite({ email: 'jane@example.com', order: 'P-2', delay: '2' })).message).toBe(
      'Invitation successfully added to queue!',
    );
    const doc = await invitation('P-2');
    expect(doc!.scheduled.getTime() - doc!.created.getTime()).toBe(2 * DAY_MS);
  });

  it('schedules an Ask-me-later invitation no earlier than the delay the customer was promised', async () => {
    const recorded = await t.services.consents.record(consent({ order: 'P-3', choice: 'ask_later', inviteDelay: 5 }));
    expect((await invite({ email: 'jane@example.com', order: 'P-3', delay: '1' })).message).toBe(
      'Invitation successfully added to queue!',
    );
    expect((await invitation('P-3'))!.scheduled.getTime()).toBe(recorded.created.getTime() + 5 * DAY_MS);
  });

  it('keeps the shop delay when it is the later of the two', async () => {
    await t.services.consents.record(consent({ order: 'P-4', choice: 'ask_later', inviteDelay: 1 }));
    await invite({ email: 'jane@example.com', order: 'P-4', delay: '10' });
    const doc = await invitation('P-4');
    expect(doc!.scheduled.getTime() - doc!.created.getTime()).toBe(10 * DAY_MS);
  });
});
