// Pushed wake-ups between an API-only scheduler and a worker scheduler on the test database: the worker starts the
// drain at once and gets the pushed ids; a push that cannot be delivered falls back to the kind's marker; the
// listener refuses what is not a wake-up from a holder of the secret; kinds with spaced runs are pushed no more
// often than their spacing, on a clock the test moves.
import { createServer, type Server } from 'node:http';
import { afterAll, expect, it } from 'vitest';
import { createLogger } from '../log.js';
import { Scheduler, WAKE_UPS } from './scheduler.js';
import { addPending, MAX_ITEMS, wakeUpCalls } from './wake.js';
import { ManualClock } from '../../test/manual-clock.js';
import { scratchDatabase } from '../../test/scratch-db.js';

const { db } = await scratchDatabase('wake');

const SECRET = 'wake-test-secret-0123456789abcdef';
const stops: (() => Promise<unknown>)[] = [];

afterAll(async () => {
  for (const stop of stops.reverse()) await stop();
});

const waitFor = async (check: () => boolean | Promise<boolean>, ms = 30_000) => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
};

/** A worker scheduler listening for pushes on a free port, with one drain that records its runs and pushed ids. */
async function startWorker(kind: string) {
  const worker = new Scheduler(db, createLogger('silent'), {
    pollMs: 100,
    lockLifetimeMs: 30_000,
    worker: true,
    push: { secret: SECRET, listen: { host: '127.0.0.1', port: 0 }, workerUrls: [] },
  });
  const state = { runs: 0, received: [] as string[] };
  worker.define(
    kind,
    async () => {
      state.runs++;
    },
    undefined,
    { receive: (items) => state.received.push(...items) },
  );
  await worker.start();
  stops.push(() => worker.stop());
  await waitFor(() => state.runs >= 1); // the catch-up run at start
  return { worker, state, url: `http://127.0.0.1:${worker.wakePort}` };
}

function apiScheduler(url: string, secret = SECRET, clock?: ManualClock) {
  const api = new Scheduler(db, createLogger('silent'), {
    pollMs: 100,
    lockLifetimeMs: 30_000,
    worker: false,
    push: { secret, listen: undefined, workerUrls: [url] },
    clock,
  });
  stops.push(() => api.stop());
  return api;
}

const marker = (kind: string) => db.collection<{ _id: string }>(WAKE_UPS).findOne({ _id: kind });

it('starts the worker drain at once with the pushed ids, and raises no marker', async () => {
  const { state, url } = await startWorker('test.pushed');
  const api = apiScheduler(url);
  const runsBefore = state.runs;
  for (let i = 0; i < 50; i++) api.trigger('test.pushed', `event-${i}`);
  await waitFor(() => state.received.length >= 50);
  await waitFor(() => state.runs > runsBefore);
  // Pushed, not found on a marker poll: the ids arrived, and no marker was raised.
  expect(new Set(state.received)).toEqual(new Set(Array.from({ length: 50 }, (_, i) => `event-${i}`)));
  expect(await marker('test.pushed')).toBeNull();
});

it('falls back to the marker when the push is refused (wrong secret) or the worker is not there', async () => {
  const { state, url } = await startWorker('test.fallback');
  const wrongSecret = apiScheduler(url, 'not-the-worker-secret-0123456789');
  let runsBefore = state.runs;
  wrongSecret.trigger('test.fallback', 'lost-id');
  await waitFor(async () => (await marker('test.fallback')) !== null);
  // The worker reads the marker (once a second while pushes work) and runs the drain; the id itself is not needed.
  await waitFor(() => state.runs > runsBefore);
  expect(state.received).toEqual([]);

  const closed = createServer();
  await new Promise<void>((ok) => closed.listen(0, '127.0.0.1', ok));
  const port = (closed.address() as { port: number }).port;
  await new Promise((ok) => closed.close(ok));
  const down = apiScheduler(`http://127.0.0.1:${port}`);
  const before = (await marker('test.fallback')) as { token?: string } | null;
  runsBefore = state.runs;
  down.trigger('test.fallback');
  await waitFor(async () => ((await marker('test.fallback')) as { token?: string } | null)?.token !== before?.token);
  await waitFor(() => state.runs > runsBefore);
});

it('sends one push at a time per worker and merges what was queued meanwhile', async () => {
  const bodies: { wake: { kind: string; items?: string[] }[] }[] = [];
  const slow: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (d: Buffer) => (raw += d));
    req.on('end', () => {
      bodies.push(JSON.parse(raw));
      setTimeout(() => res.writeHead(204).end(), 100);
    });
  });
  await new Promise<void>((ok) => slow.listen(0, '127.0.0.1', ok));
  stops.push(() => new Promise((ok) => slow.close(ok)));
  const api = apiScheduler(`http://127.0.0.1:${(slow.address() as { port: number }).port}`);
  for (let i = 0; i < 30; i++) api.trigger('test.merge', `e${i}`);
  api.trigger('test.other');
  await waitFor(() => bodies.length >= 2);
  await new Promise((r) => setTimeout(r, 250));
  // The first trigger's push, then one with everything queued while it was in flight.
  expect(bodies).toHaveLength(2);
  expect(bodies[0]!.wake).toEqual([{ kind: 'test.merge', items: ['e0'] }]);
  expect(bodies[1]!.wake).toEqual([
    { kind: 'test.merge', items: Array.from({ length: 29 }, (_, i) => `e${i + 1}`) },
    { kind: 'test.other' },
  ]);
});

it('answers only wake-ups from a holder of the secret', async () => {
  const { state, url } = await startWorker('test.listener');
  const post = (
    body: string,
    headers: Record<string, string> = { authorization: `Bearer ${SECRET}` },
    path = '/wake',
  ) => fetch(url + path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  const valid = JSON.stringify({ wake: [{ kind: 'test.listener', items: ['1:1'] }] });

  expect((await post(valid, {})).status).toBe(401);
  expect((await post(valid, { authorization: 'Bearer wrong-secret-0123456789abcdefgh' })).status).toBe(401);
  expect((await post(valid, { authorization: SECRET })).status).toBe(401);
  expect((await post(valid, undefined, '/other')).status).toBe(404);
  expect((await fetch(`${url}/wake`, { headers: { authorization: `Bearer ${SECRET}` } })).status).toBe(405);
  const notJson = await post('{"wake":');
  expect(notJson.status).toBe(400);
  expect(await notJson.json()).toEqual({ error: { code: 'bad_request', message: 'The body is not JSON.' } });
  const operator = await post(JSON.stringify({ wake: [{ kind: { $gt: '' } }] }));
  expect(operator.status).toBe(400);
  expect(((await operator.json()) as { error: { message: string } }).error.message).toMatch(
    /^Not a wake-up: wake\.0\.kind/,
  );
  expect((await post(JSON.stringify({ wake: [{ kind: 'x', items: Array(MAX_ITEMS + 1).fill('1') }] }))).status).toBe(
    400,
  );
  expect((await post('x'.repeat(300_000))).status).toBe(413);
  expect(state.received).toEqual([]);

  // A kind this worker does not run is ignored; a known one runs with its ids.
  const runsBefore = state.runs;
  expect(
    (await post(JSON.stringify({ wake: [{ kind: 'test.unknown' }, { kind: 'test.listener', items: ['1:1'] }] })))
      .status,
  ).toBe(204);
  await waitFor(() => state.runs > runsBefore);
  expect(state.received).toEqual(['1:1']);
});

it('stops listing ids past the limit and then just names the kind', () => {
  const pending = new Map<string, Set<string> | null>();
  for (let i = 0; i < MAX_ITEMS; i++) addPending(pending, 'a', String(i));
  addPending(pending, 'b', undefined);
  addPending(pending, 'b', 'late');
  expect(wakeUpCalls(pending).map((c) => [c.kind, c.items?.length])).toEqual([
    ['a', MAX_ITEMS],
    ['b', undefined],
  ]);
  addPending(pending, 'a', 'one too many');
  expect(wakeUpCalls(pending)[0]).toEqual({ kind: 'a' });
});

it('pushes a kind with spaced runs no more often than its spacing, and others at once', async () => {
  // The pusher's clock moves only when the test moves it, a millisecond at a time, each step's pushes arriving before
  // the next: a push arrives at the time it left, on the clock the pusher decided by.
  const clock = new ManualClock();
  const arrivals: { at: number; kinds: string[] }[] = [];
  const worker: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (d: Buffer) => (raw += d));
    req.on('end', () => {
      arrivals.push({
        at: clock.now(),
        kinds: (JSON.parse(raw) as { wake: { kind: string }[] }).wake.map((w) => w.kind),
      });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((ok) => worker.listen(0, '127.0.0.1', ok));
  stops.push(() => new Promise((ok) => worker.close(ok)));
  const api = apiScheduler(`http://127.0.0.1:${(worker.address() as { port: number }).port}`, SECRET, clock);
  api.define('test.mail', async () => undefined, undefined, { spacingMs: 300 });
  const pass = async (ms: number) => {
    for (let step = 0; step < ms; step++) {
      clock.advance(1);
      await api.pushesSettled();
    }
  };
  const started = clock.now();
  for (let i = 0; i < 20; i++) {
    api.trigger('test.mail');
    await api.pushesSettled();
    await pass(20);
  }
  api.trigger('test.hook', '1:1');
  await api.pushesSettled();
  await pass(1000);
  // 20 triggers over 400 ms: the first at once, one a spacing later with those queued meanwhile, one a spacing after
  // that for the rest; the other kind at once, between them.
  expect(arrivals).toEqual([
    { at: started, kinds: ['test.mail'] },
    { at: started + 300, kinds: ['test.mail'] },
    { at: started + 400, kinds: ['test.hook'] },
    { at: started + 600, kinds: ['test.mail'] },
  ]);
  expect(await marker('test.mail')).toBeNull();
});
