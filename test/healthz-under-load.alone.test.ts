// The hardening issue's responsiveness check, end to end: /healthz keeps answering while the worst 4 MB bodies of
// each kind are posted, and every body gets its answer. What keeps it answering is held without a clock in
// server/http/body.test.ts (the parsers hand the event loop back every 256 KB, counted); the bound here is only a
// backstop against a parse that holds the loop for many seconds (one took hours before the caps): 6-164 ms on a
// quiet machine, the 200 ms the service is meant to answer within, up to 2.6 s with three busy loops on the two
// cores of a machine already loaded. The figures are printed. 80 MB of bodies are work for both cores, so this file
// runs in a vitest pass of its own (vitest.alone.config.ts, part of `npm test`), not beside other test files.
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, withAuth, type TestApp } from './harness.js';
import { worstBodies } from './worst-bodies.js';

const INVITATIONS = '/api/1.0/invitations.json';
/** Fifty times what the service is meant to answer /healthz within while it parses (200 ms). */
const BACKSTOP_MS = 10_000;

describe('/healthz while the worst 4 MB bodies are posted', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it(`answers within ${BACKSTOP_MS} ms, and every body gets its answer (200 or 413, never 5xx)`, async () => {
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

    answers.forEach((a, i) => {
      expect(a.status, posts[i]!.name).toBe(posts[i]!.accepted ? 200 : 413);
    });
    const orderData = answers.filter((_, i) => posts[i]!.name.startsWith('order_data'));
    expect(orderData.length).toBeGreaterThan(0);
    for (const a of orderData) expect(JSON.parse(a.text)).toMatchObject({ status: 'success' });
    expect(latencies.length).toBeGreaterThanOrEqual(5);
    const sorted = [...latencies].sort((a, b) => a - b);
    console.log(
      `healthz under load: ${latencies.length} answers while ${posts.length} bodies were posted, median ` +
        `${Math.round(sorted[sorted.length >> 1]!)} ms, slowest ${Math.round(sorted.at(-1)!)} ms`,
    );
    expect(Math.max(...latencies), latencies.map(Math.round).join(' ')).toBeLessThan(BACKSTOP_MS);
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
async function postFromWorker(
  url: string,
  posts: Post[],
  concurrency: number,
): Promise<{ status: number; text: string }[]> {
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
