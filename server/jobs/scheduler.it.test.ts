import { expect, it } from 'vitest';
import { inject } from 'vitest';
import { createServer, connect as tcpConnect, type Server, type Socket } from 'node:net';
import { Writable } from 'node:stream';
import { MongoClient, MongoServerError } from 'mongodb';
import { pino } from 'pino';
import { createLogger } from '../log.js';
import { Scheduler, WAKE_UPS } from './scheduler.js';
import { ManualClock } from '../../test/manual-clock.js';
import { scratchDatabase } from '../../test/scratch-db.js';

const { db } = await scratchDatabase('sched');

/** Waits for something to happen, as long as a busy machine may need; it is never a bound on how soon. */
const waitFor = async (check: () => boolean | Promise<boolean>, ms = 30_000) => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
};

/** A logger that keeps its lines, to see what an episode of errors logs. */
function capturingLogger() {
  const lines: { level: number; msg: string }[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()));
      done();
    },
  });
  return { log: pino({ level: 'info' }, stream), lines };
}

/** What FerretDB on SQLite answers when another connection wrote between a write's read and its write. */
const sqliteBusy = () =>
  new MongoServerError({ message: 'database is locked (5) (SQLITE_BUSY)', code: 1, codeName: 'InternalError' });

it('runs a drain on its period and at once when triggered, coalescing triggers during a run', async () => {
  const scheduler = new Scheduler(db, createLogger('silent'), { pollMs: 200, lockLifetimeMs: 30_000, worker: true });
  let runs = 0;
  scheduler.define(
    'test.drain',
    async () => {
      runs++;
      await new Promise((r) => setTimeout(r, 50));
    },
    60_000,
  );
  await scheduler.start();
  await waitFor(() => runs >= 1); // the periodic job's first run
  const before = runs;
  for (let i = 0; i < 5; i++) scheduler.trigger('test.drain');
  await waitFor(() => runs >= before + 2);
  await new Promise((r) => setTimeout(r, 200));
  expect(runs - before).toBeLessThanOrEqual(2);
  await scheduler.stop();
});

it('wakes a worker for work queued in API-only processes: one marker per kind, however many items', async () => {
  const items = db.collection<{ _id: number }>('test_items');
  const worker = new Scheduler(db, createLogger('silent'), { pollMs: 100, lockLifetimeMs: 30_000, worker: true });
  const done = new Set<number>();
  let runs = 0;
  let finished = 0;
  let runsWithWork = 0;
  /** A run waits for it before it looks for items: the test holds the runs while it queues. */
  let held = Promise.resolve();
  worker.define('test.items', async () => {
    runs++;
    await held;
    const found = await items.find({}).toArray();
    if (found.length) runsWithWork++;
    for (const item of found) done.add(item._id);
    await items.deleteMany({ _id: { $in: [...done] } });
    finished++;
  });
  await worker.start();
  // The catch-up run at start, to its end: on a busy machine its read could otherwise land among the inserts below.
  await waitFor(() => finished >= 1);
  const runsAtStart = runs;
  let release!: () => void;
  held = new Promise((ok) => (release = ok));

  // Two API processes queue 300 items, each followed by a trigger, as Add invitation does.
  const apis = [0, 1].map(
    () => new Scheduler(db, createLogger('silent'), { pollMs: 100, lockLifetimeMs: 30_000, worker: false }),
  );
  for (const api of apis) api.define('test.items', async () => undefined);
  await Promise.all(
    Array.from({ length: 300 }, async (_, i) => {
      await items.insertOne({ _id: i });
      apis[i % 2]!.trigger('test.items');
    }),
  );
  // A marker read woke the worker; its run is held until everything is queued, and the wake-ups meanwhile make one
  // more run after it, not one each.
  await waitFor(() => runs > runsAtStart);
  release();
  await waitFor(() => done.size === 300);
  expect(await db.collection(WAKE_UPS).countDocuments({})).toBe(1);
  expect(await db.collection('jobs').countDocuments({ name: 'test.items' })).toBe(0);
  // Not a run per item or per wake-up: the run that was woken took everything queued, the runs after it nothing.
  expect(runsWithWork).toBe(1);

  // And an item queued later, after everything went quiet, is picked up through its marker (there is no
  // periodic run of this kind to find it otherwise).
  await items.insertOne({ _id: 1000 });
  apis[1]!.trigger('test.items');
  await waitFor(() => done.has(1000));
  for (const api of apis) await api.stop();
  await worker.stop();
});

it('retries a drain after a transient database error and logs the episode once', async () => {
  const { log, lines } = capturingLogger();
  const clock = new ManualClock();
  const scheduler = new Scheduler(db, log, { pollMs: 200, lockLifetimeMs: 30_000, worker: true, clock });
  let attempts = 0;
  let finished = false;
  scheduler.define('test.busy', async () => {
    if (attempts++ < 3) throw sqliteBusy();
    finished = true;
  });
  await scheduler.start();
  // Each failure makes the drain wait on the scheduler's clock: what it waits is its decision, read off the clock.
  const waits: number[] = [];
  for (let retry = 0; retry < 3; retry++) {
    await waitFor(() => clock.waiting.length > 0);
    expect(clock.waiting).toHaveLength(1);
    waits.push(clock.waiting[0]!);
    clock.advance(clock.waiting[0]!);
  }
  await waitFor(() => finished);
  // Three short waits, doubling (at most 50 ms, 100 ms, 200 ms), not the next periodic run.
  waits.forEach((ms, retry) => {
    expect(ms).toBeGreaterThanOrEqual(25 * 2 ** retry);
    expect(ms).toBeLessThanOrEqual(50 * 2 ** retry);
  });
  expect(attempts).toBe(4);
  expect(lines.filter((l) => l.level >= 40)).toEqual([
    expect.objectContaining({ level: 40, msg: expect.stringContaining('test.busy') }),
  ]);
  expect(lines.filter((l) => l.msg === 'test.busy: recovered')).toHaveLength(1);
  await scheduler.stop();
});

it('does not retry a drain error that is not transient', async () => {
  const { log, lines } = capturingLogger();
  const scheduler = new Scheduler(db, log, { pollMs: 200, lockLifetimeMs: 30_000, worker: true });
  let attempts = 0;
  scheduler.define('test.bug', async () => {
    attempts++;
    throw new TypeError('a bug');
  });
  await scheduler.start();
  await waitFor(() => attempts >= 1);
  await new Promise((r) => setTimeout(r, 300));
  expect(attempts).toBe(1);
  expect(lines.filter((l) => l.level === 50)).toHaveLength(1);
  await scheduler.stop();
});

/** A TCP proxy in front of the database that can drop every connection and refuse new ones for a while. */
async function startProxy(uri: string) {
  // The database's address: host:port, or a Unix socket path (percent-encoded, as the embedded FerretDB has it).
  const host = decodeURIComponent(uri.slice('mongodb://'.length).split('/')[0]!.split(',')[0]!);
  const target = host.startsWith('/')
    ? { path: host }
    : { host: host.split(':')[0]!, port: Number(host.split(':')[1] ?? 27017) };
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  const listen = async (port: number) => {
    server = createServer((socket) => {
      const upstream = tcpConnect(target);
      sockets.add(socket).add(upstream);
      socket.pipe(upstream).pipe(socket);
      for (const s of [socket, upstream]) {
        s.on('error', () => undefined);
        s.on('close', () => {
          socket.destroy();
          upstream.destroy();
          sockets.delete(s);
        });
      }
    });
    await new Promise<void>((ok) => server!.listen(port, '127.0.0.1', ok));
    return (server.address() as { port: number }).port;
  };
  const port = await listen(0);
  return {
    port,
    drop: async () => {
      await new Promise<void>((ok) => {
        server!.close(() => ok());
        for (const s of sockets) s.destroy();
      });
    },
    restore: () => listen(port),
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((ok) => (server!.listening ? server!.close(() => ok()) : ok()));
    },
  };
}

it('wakes the worker in the end when the API process lost its database connection for a moment', async () => {
  const proxy = await startProxy(inject('mongoUri'));
  const apiClient = new MongoClient(`mongodb://127.0.0.1:${proxy.port}/`, {
    serverSelectionTimeoutMS: 300,
    directConnection: true,
  });
  await apiClient.connect();
  const { log, lines } = capturingLogger();
  const api = new Scheduler(apiClient.db(db.databaseName), log, { pollMs: 100, lockLifetimeMs: 30_000, worker: false });
  api.define('test.dropped', async () => undefined);

  const worker = new Scheduler(db, createLogger('silent'), { pollMs: 100, lockLifetimeMs: 30_000, worker: true });
  let runs = 0;
  worker.define('test.dropped', async () => void runs++);
  await worker.start();
  await waitFor(() => runs === 1); // the catch-up run at start
  await api.agenda.ready; // Agenda's own start-up writes are done (they are retried too, but logged apart)
  try {
    await proxy.drop();
    api.trigger('test.dropped');
    api.trigger('test.dropped');
    await new Promise((r) => setTimeout(r, 1000));
    expect(runs).toBe(1);
    await proxy.restore();
    await waitFor(() => runs === 2);
    await waitFor(() => lines.some((l) => l.msg.endsWith('recovered')));
    const warnings = lines.filter((l) => l.level >= 40);
    expect(warnings).toEqual([
      expect.objectContaining({ level: 40, msg: expect.stringContaining('waking the workers for test.dropped') }),
    ]);
    expect(lines.filter((l) => l.msg === 'waking the workers for test.dropped: recovered')).toHaveLength(1);
  } finally {
    await api.stop();
    await worker.stop();
    await apiClient.close(true);
    await proxy.close();
  }
});

it('does not end the process when the database is unreachable while the scheduler connects', async () => {
  const proxy = await startProxy(inject('mongoUri'));
  const apiClient = new MongoClient(`mongodb://127.0.0.1:${proxy.port}/`, {
    serverSelectionTimeoutMS: 300,
    directConnection: true,
  });
  await apiClient.connect();
  const { log, lines } = capturingLogger();
  await proxy.drop();
  // Agenda connects its backend (and creates indexes) from its constructor, without waiting for it: before, that
  // failure was an unhandled rejection, and Agenda never became ready.
  const api = new Scheduler(apiClient.db(db.databaseName), log, { pollMs: 100, lockLifetimeMs: 30_000, worker: false });
  try {
    await new Promise((r) => setTimeout(r, 800));
    await proxy.restore();
    await api.agenda.ready;
    expect(lines.filter((l) => l.level >= 40)).toEqual([
      expect.objectContaining({ level: 40, msg: expect.stringContaining('connecting the scheduler') }),
    ]);
  } finally {
    await api.stop();
    await apiClient.close(true);
    await proxy.close();
  }
});

it('spaces the runs of a drain with spacingMs in a burst, and runs the first trigger after a quiet spell at once', async () => {
  // The scheduler's clock moves only when the test moves it, a millisecond at a time; a drain run that comes due
  // starts (and here ends: it waits for nothing) before the next step. The runs start when the scheduler decided.
  const clock = new ManualClock();
  const scheduler = new Scheduler(db, createLogger('silent'), {
    pollMs: 200,
    lockLifetimeMs: 30_000,
    worker: true,
    clock,
  });
  const starts: number[] = [];
  let ends = 0;
  scheduler.define(
    'test.spaced',
    async () => {
      starts.push(clock.now());
      ends++;
    },
    undefined,
    { spacingMs: 300 },
  );
  const settled = () => new Promise((r) => setImmediate(r));
  const pass = async (ms: number) => {
    for (let step = 0; step < ms; step++) {
      clock.advance(1);
      await settled();
    }
  };
  const started = clock.now();
  await scheduler.start();
  await waitFor(() => ends === 1); // the catch-up run at start
  await settled();
  await pass(350); // a quiet spell
  scheduler.trigger('test.spaced');
  await settled();
  // Ten triggers 30 ms apart: they wait for the spacing together, then one that comes after that run waits again.
  for (let i = 0; i < 10; i++) {
    await pass(30);
    scheduler.trigger('test.spaced');
    await settled();
  }
  await pass(1000);
  expect(starts).toEqual([started, started + 350, started + 650, started + 950]);
  await scheduler.stop();
});

it('runs a drain again for a trigger that arrives at any moment of the end of its run', async () => {
  // Work queued while a run ends (its last read done, the run not yet over) is left to the run the trigger asks for:
  // a trigger lost there leaves that work to the periodic run (none here, so the test would wait for ever).
  const scheduler = new Scheduler(db, createLogger('silent'), { pollMs: 200, lockLifetimeMs: 30_000, worker: true });
  let runs = 0;
  /** Called as a run returns: triggers the drain again after `hops` turns of the microtask queue. */
  let atEnd: (() => void) | undefined;
  scheduler.define('test.ending', async () => {
    runs++;
    const end = atEnd;
    atEnd = undefined;
    end?.();
  });
  await scheduler.start();
  await waitFor(() => runs === 1); // the catch-up run at start
  await new Promise((r) => setImmediate(r));
  for (let hops = 0; hops < 20; hops++) {
    const before = runs;
    atEnd = () => {
      let later = Promise.resolve();
      for (let i = 0; i < hops; i++) later = later.then(() => undefined);
      void later.then(() => scheduler.trigger('test.ending'));
    };
    scheduler.trigger('test.ending');
    await waitFor(() => runs === before + 2);
    await new Promise((r) => setImmediate(r));
  }
  await scheduler.stop();
});

it('runs a drain again for the triggers that arrived during a run that failed', async () => {
  const scheduler = new Scheduler(db, createLogger('silent'), { pollMs: 200, lockLifetimeMs: 30_000, worker: true });
  let runs = 0;
  let failing: (() => void) | undefined;
  scheduler.define('test.failing', async () => {
    runs++;
    const fail = failing;
    failing = undefined;
    if (!fail) return;
    await new Promise((r) => setImmediate(r));
    // Work queued (and triggered) while this run goes on, then the run fails with a bug.
    fail();
    throw new TypeError('a bug');
  });
  await scheduler.start();
  await waitFor(() => runs === 1); // the catch-up run at start
  await new Promise((r) => setImmediate(r));
  failing = () => scheduler.trigger('test.failing');
  scheduler.trigger('test.failing');
  await waitFor(() => runs === 3);
  await scheduler.stop();
});
