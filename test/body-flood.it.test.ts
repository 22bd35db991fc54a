// Request bodies over HTTP: the caps answer 413 in each endpoint's envelope, Add invitation checks credentials in
// the query before it reads a body, and the service stays responsive while the worst bodies are posted.
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BODY_CAPS } from '../server/http/body.js';
import { startTestApp, withAuth, type TestApp } from './harness.js';
import { worstBodies } from './worst-bodies.js';

const INVITATIONS = '/api/1.0/invitations.json';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
/** One field more than the cap, in an ordinary-looking form. */
const tooManyFields = Array.from({ length: BODY_CAPS.fields + 1 }, () => 'f=1').join('&');
const FIELDS_MESSAGE = `The request body has more than ${BODY_CAPS.fields} fields (values and nested objects together).`;
const tooDeep = `{"a":${'['.repeat(BODY_CAPS.depth)}${']'.repeat(BODY_CAPS.depth)}}`;

describe('body caps answer 413 in the endpoint envelope', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('classic: {status:"error"} with the message', async () => {
    const shop = await t.createShop();
    const res = await t.fetch(withAuth(INVITATIONS, shop), { method: 'POST', headers: FORM, body: tooManyFields });
    expect(res.status).toBe(413);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await res.json()).toEqual({ status: 'error', message: FIELDS_MESSAGE });
  });

  it('operator and public JSON: {error:{code:"payload_too_large"}}', async () => {
    const shop = await t.createShop();
    const admin = await t.admin('/admin/api/webshops', { method: 'POST', headers: { 'content-type': 'application/json' }, body: tooDeep });
    const embed = await t.fetch(`/embed/${shop.id}/order/verify`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: tooDeep });
    for (const res of [admin, embed]) {
      expect(res.status).toBe(413);
      expect(await res.json()).toEqual({
        error: { code: 'payload_too_large', message: `The request body is nested more than ${BODY_CAPS.depth} levels deep.` },
      });
    }
  });

  it('review page: a small HTML page', async () => {
    const shop = await t.createShop();
    const queued = await t.fetch(withAuth(INVITATIONS, shop), { method: 'POST', headers: FORM, body: 'email=jane%40example.com&order=1' });
    expect((await queued.json()).status).toBe('success');
    const invitation = await t.services.invitations.collection.findOne({ shopId: shop.id });
    const res = await t.fetch(`/review/${invitation!.token}`, { method: 'POST', headers: FORM, body: tooManyFields });
    expect(res.status).toBe(413);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await res.text()).toContain(`<p>${FIELDS_MESSAGE}</p>`);
  });
});

describe('Add invitation with credentials in the query', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ RATE_LIMIT_PER_SHOP: '2' });
  });
  afterAll(() => t.close());

  it('answers wrong credentials without reading the body', async () => {
    const shop = await t.createShop();
    const res = await t.fetch(withAuth(INVITATIONS, { id: shop.id, code: 'wrong' }), { method: 'POST', headers: FORM, body: tooManyFields });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'error', message: 'Incorrect authentication credentials.' });
  });

  it('applies the per-shop limit before reading the body', async () => {
    const shop = await t.createShop();
    const post = () => t.fetch(withAuth(INVITATIONS, shop), { method: 'POST', headers: FORM, body: tooManyFields });
    expect((await post()).status).toBe(413);
    expect((await post()).status).toBe(413);
    const limited = await post();
    expect(limited.status).toBe(429);
    expect(await limited.json()).toEqual({ status: 'error', message: 'Too many requests. Please try again later.' });
  });

  it('still accepts credentials in the body (then the capped parser runs first)', async () => {
    const shop = await t.createShop();
    const fields = new URLSearchParams({ id: String(shop.id), code: shop.code, email: 'jane@example.com', order: 'B-1' });
    const res = await t.fetch(INVITATIONS, { method: 'POST', headers: FORM, body: fields.toString() });
    expect(await res.json()).toEqual({ status: 'success', message: 'Invitation successfully added to queue!' });
    const over = await t.fetch(INVITATIONS, { method: 'POST', headers: FORM, body: `${fields.toString()}&${tooManyFields}` });
    expect(over.status).toBe(413);
  });

  it('takes body credentials when the query has only one of id and code', async () => {
    const shop = await t.createShop();
    const res = await t.fetch(`${INVITATIONS}?id=${shop.id}`, {
      method: 'POST',
      headers: FORM,
      body: new URLSearchParams({ code: shop.code, email: 'jane@example.com', order: 'B-2' }).toString(),
    });
    expect(await res.json()).toEqual({ status: 'success', message: 'Invitation successfully added to queue!' });
  });
});

describe('/healthz while the worst 4 MB bodies are posted', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('answers within 200 ms, and every body gets its answer (200 or 413, never 5xx)', async () => {
    const shop = await t.createShop();
    // order_data reaches Add invitation's handler only with a shop's credentials; the other bodies are parsed,
    // then answered "missing credentials".
    const posts = worstBodies().map((b) => ({
      name: `${b.kind}: ${b.name}`,
      path: b.kind === 'order_data' ? withAuth(INVITATIONS, shop) : INVITATIONS,
      contentType: b.contentType,
      // A copy of its own, to hand over to the worker.
      body: new Uint8Array(b.body),
      accepted: b.accepted,
    }));
    let posting = true;
    const latencies: number[] = [];
    const probe = async () => {
      while (posting) {
        const started = performance.now();
        const res = await t.fetch('/healthz');
        await res.arrayBuffer();
        latencies.push(performance.now() - started);
        expect(res.status).toBe(200);
        await new Promise((ok) => setTimeout(ok, 20));
      }
    };
    const probing = probe();
    const answers = await postFromWorker(t.url, posts, 4);
    posting = false;
    await probing;

    answers.forEach((a, i) => expect(a.status, posts[i]!.name).toBe(posts[i]!.accepted ? 200 : 413));
    const orderData = answers.filter((_, i) => posts[i]!.name.startsWith('order_data'));
    expect(orderData.length).toBeGreaterThan(0);
    for (const a of orderData) expect(JSON.parse(a.text)).toMatchObject({ status: 'success' });
    expect(latencies.length).toBeGreaterThanOrEqual(5);
    expect(Math.max(...latencies), latencies.map(Math.round).join(' ')).toBeLessThan(200);
  }, 120_000);
});

interface Post {
  path: string;
  contentType: string;
  /** Handed over to the worker (unusable here afterwards). */
  body: Uint8Array;
}

/**
 * Posts the bodies from a worker thread, `concurrency` at a time, and returns each answer in order. Sending 80 MB
 * is work of its own: in a worker it does not stall the event loop whose responsiveness the test measures.
 */
async function postFromWorker(url: string, posts: Post[], concurrency: number): Promise<{ status: number; text: string }[]> {
  const items = posts.map(({ path, contentType, body }) => ({ path, contentType, body }));
  const worker = new Worker(POSTER, {
    eval: true,
    workerData: { url, items, concurrency },
    transferList: items.map((i) => i.body.buffer as ArrayBuffer),
  });
  try {
    const [answers] = (await once(worker, 'message')) as [{ status: number; text: string }[]];
    return answers;
  } finally {
    await worker.terminate();
  }
}

const POSTER = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const { url, items, concurrency } = workerData;
const post = (item) => new Promise((ok, fail) => {
  const headers = { 'content-type': item.contentType, 'content-length': item.body.byteLength };
  const req = http.request(url + item.path, { method: 'POST', headers }, (res) => {
    const chunks = [];
    res.on('data', (c) => chunks.push(c));
    res.on('end', () => ok({ status: res.statusCode, text: Buffer.concat(chunks).toString() }));
  });
  req.on('error', fail);
  req.end(item.body);
});
const answers = [];
let next = 0;
const lane = async () => { while (next < items.length) { const i = next++; answers[i] = await post(items[i]); } };
Promise.all(Array.from({ length: concurrency }, lane)).then(() => parentPort.postMessage(answers));
`;
