// Client addresses as the rate limits see them: an IPv6 client owns a whole /64, so each of its addresses must
// count against one limit, and an IPv4 client seen through an IPv4-mapped IPv6 address is the same client.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { orderSignature } from '../consents/signature.js';

describe('the app-wide per-address limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ TRUST_PROXY: 'true', RATE_LIMIT_PER_IP: '5' });
  });
  afterAll(() => t.close());
  const from = (ip: string) => t.fetch('/healthz', { headers: { 'x-forwarded-for': ip } });

  it('counts every address of an IPv6 /64 as one client', async () => {
    const statuses: number[] = [];
    for (let i = 1; i <= 6; i++) statuses.push((await from(`2001:db8:aa:1::${i.toString(16)}`)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    expect((await from('2001:db8:aa:2::1')).status).toBe(200); // the next /64 is someone else
  });

  it('counts an IPv4 address and its IPv4-mapped IPv6 form as one client', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await from(i % 2 ? '198.51.100.9' : '::ffff:198.51.100.9')).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });
});

describe('the embed limits per address', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ TRUST_PROXY: 'true', RATE_LIMIT_PER_IP: '0' });
  });
  afterAll(() => t.close());

  it('count every address of an IPv6 /64 as one client (30 pop-up calls a minute)', async () => {
    const shop = await t.createShop();
    const statuses: number[] = [];
    for (let i = 1; i <= 31; i++) {
      const order = {
        webshopId: shop.id,
        orderNumber: `R-${i}`,
        email: 'jane@example.com',
        firstName: 'Jane',
        inviteDelay: 3,
      };
      const res = await t.fetch(`/embed/${shop.id}/order/verify`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `2001:db8:bb:1::${i.toString(16)}` },
        body: JSON.stringify({ order, signature: orderSignature(order, shop.id, shop.code) }),
      });
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 30).every((s) => s === 200)).toBe(true);
    expect(statuses[30]).toBe(429);
  });
});
