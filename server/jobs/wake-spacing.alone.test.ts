// The invitation sender's runs are spaced (spacingMs): an API process pushes its wake-up no more often than that,
// however many invitations arrive, while other kinds are pushed at once. The spacing is the pusher's rule, so it is
// measured where the pushes leave (the times `fetch` is called), not where they arrive: the network's jitter is not
// the pusher's. It measures time, so it runs in the timing pass (vitest.alone.config.ts).
import { createServer, type Server } from 'node:http';
import { afterAll, expect, it } from 'vitest';
import { createLogger } from '../log.js';
import { Scheduler } from './scheduler.js';
import { scratchDatabase } from '../../test/scratch-db.js';

const { db } = await scratchDatabase('wake_spacing');

const SECRET = 'wake-test-secret-0123456789abcdef';
const stops: (() => Promise<unknown>)[] = [];

afterAll(async () => {
  for (const stop of stops.reverse()) await stop();
});

const waitFor = async (check: () => boolean, ms = 10_000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
};

function apiScheduler(url: string) {
  const api = new Scheduler(db, createLogger('silent'), {
    pollMs: 100,
    lockLifetimeMs: 30_000,
    worker: false,
    push: { secret: SECRET, listen: undefined, workerUrls: [url] },
  });
  stops.push(() => api.stop());
  return api;
}

it('pushes a kind with spaced runs no more often than its spacing, and others at once', async () => {
  const arrivals: { at: number; kinds: string[] }[] = [];
  const sent: { at: number; kinds: string[] }[] = [];
  const realFetch = globalThis.fetch;
  globalThis.fetch = (input, init) => {
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as { wake?: { kind: string }[] }) : {};
    sent.push({ at: Date.now(), kinds: (body.wake ?? []).map((w) => w.kind) });
    return realFetch(input, init);
  };
  stops.push(async () => {
    globalThis.fetch = realFetch;
  });
  const worker: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (d: Buffer) => (raw += d));
    req.on('end', () => {
      arrivals.push({ at: Date.now(), kinds: (JSON.parse(raw) as { wake: { kind: string }[] }).wake.map((w) => w.kind) });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((ok) => worker.listen(0, '127.0.0.1', ok));
  stops.push(() => new Promise((ok) => worker.close(ok)));
  const api = apiScheduler(`http://127.0.0.1:${(worker.address() as { port: number }).port}`);
  api.define('test.mail', async () => undefined, undefined, { spacingMs: 300 });
  const started = Date.now();
  for (let i = 0; i < 20; i++) {
    api.trigger('test.mail');
    await new Promise((r) => setTimeout(r, 20));
  }
  const hookAt = Date.now();
  api.trigger('test.hook', '1:1');
  await waitFor(() => arrivals.some((a) => a.kinds.includes('test.hook')));
  expect(arrivals.find((a) => a.kinds.includes('test.hook'))!.at - hookAt).toBeLessThan(100);
  await new Promise((r) => setTimeout(r, 400));
  const mail = sent.filter((a) => a.kinds.includes('test.mail'));
  expect(arrivals.filter((a) => a.kinds.includes('test.mail'))).toHaveLength(mail.length);
  // 20 triggers over 400 ms: the first at once, then one a spacing later, and one for the rest.
  expect(mail[0]!.at - started).toBeLessThan(100);
  expect(mail.length).toBeLessThanOrEqual(3);
  for (let i = 1; i < mail.length; i++) expect(mail[i]!.at - mail[i - 1]!.at).toBeGreaterThanOrEqual(300);
});
