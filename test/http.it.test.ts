// Transport-level behaviour shared by every endpoint: limits, rate limits, unexpected failures, health.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, withAuth, type TestApp } from './harness.js';

describe('limits', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_PER_IP: '5' });
  });
  afterAll(() => t.close());

  it('answers 429 with Retry-After in the endpoint envelope past the per-address limit', async () => {
    const shop = await t.createShop();
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 7; i++) {
      last = await t.fetch(withAuth('/api/1.0/ratings_summary.json', shop));
      statuses.push(last.status);
    }
    expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(last!.status).toBe(429);
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await last!.json()).toEqual({ status: 'error', message: expect.stringMatching(/Too many requests/) });
  });

  it('answers a limited widget or review page with a small HTML page, not JSON inside the iframe', async () => {
    const shop = await t.createShop();
    for (const path of [`/webshops/widget_html?id=${shop.id}`, '/review/abcdefghijklmnopqrstuvwx']) {
      let res: Response | undefined;
      for (let i = 0; i < 7 && res?.status !== 429; i++) res = await t.fetch(path);
      expect(res!.status, path).toBe(429);
      expect(res!.headers.get('content-type'), path).toBe('text/html; charset=utf-8');
      expect(res!.headers.get('retry-after'), path).toMatch(/^\d+$/);
      const html = await res!.text();
      expect(html, path).toMatch(/^<!doctype html><html lang="en">/);
      expect(html, path).toContain('<p>Too many requests. Please try again later.</p>');
    }
  });
});

describe('bodies', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('refuses a body over 1 MB with 413 in the operator envelope', async () => {
    const res = await t.admin('/admin/api/webshops', {
      method: 'POST',
      json: { name: 'x'.repeat(1100 * 1024), url: 'https://a.example' },
    });
    expect(res.status).toBe(413);
    expect((await res.json()).error.code).toBe('payload_too_large');
  });

  it('answers malformed JSON with 400, not 500', async () => {
    const res = await t.admin('/admin/api/webshops', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"name": ',
    });
    expect(res.status).toBe(400);
    expect((await res.json()).error.message).toMatch(/not valid JSON/);
  });
});

describe('unexpected failures', () => {
  it('answer the classic message with an error id, and /healthz turns 503, when the database is gone', async () => {
    const t = await startTestApp();
    const shop = await t.createShop();
    await t.client.close();
    const res = await t.fetch(withAuth('/api/1.0/ratings_summary.json', { id: shop.id + 1000, code: shop.code }));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      status: 'error',
      message: 'Unexpected error while processing. Please contact Service.',
      data: null,
    });
    expect(res.headers.get('x-error-id')).toMatch(/^[0-9a-f-]{36}$/);
    const health = await t.fetch('/healthz');
    expect(health.status).toBe(503);
    t.server.closeAllConnections();
    await new Promise((ok) => t.server.close(ok));
  });
});
