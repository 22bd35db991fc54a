// The requests' writes in flight, as a bulk import in the same process sees them (activity.ts).
import Koa from 'koa';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { countWrites, WriteActivity } from './activity.js';

/** Whether the promise has settled once the pending callbacks (and timers due) have run. */
const settled = async (p: Promise<unknown>) => {
  let done = false;
  void p.then(() => (done = true));
  await vi.advanceTimersByTimeAsync(0);
  return done;
};

afterEach(() => {
  vi.useRealTimers();
});

describe('WriteActivity', () => {
  it('lets background work go at once when no request writes, else once the requests in flight have ended', async () => {
    vi.useFakeTimers();
    const activity = new WriteActivity();
    expect(await settled(activity.yieldTo(1000))).toBe(true);
    const first = activity.begin();
    const second = activity.begin();
    const waiting = activity.yieldTo(1000);
    first();
    expect(await settled(waiting)).toBe(false);
    // A request that began after the call is not waited for: a steady stream of requests never stops the work.
    const later = activity.begin();
    second();
    expect(await settled(waiting)).toBe(true);
    expect(activity.busy).toBe(true);
    later();
    expect(activity.busy).toBe(false);
  });

  it('never holds background work longer than its cap', async () => {
    vi.useFakeTimers();
    const activity = new WriteActivity();
    activity.begin();
    const waiting = activity.yieldTo(100);
    await vi.advanceTimersByTimeAsync(99);
    expect(await settled(waiting)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await settled(waiting)).toBe(true);
  });
});

describe('countWrites', () => {
  it('counts the requests that may write from their start to their answer, not the reads', async () => {
    const activity = new WriteActivity();
    const seen: Record<string, boolean> = {};
    const app = new Koa();
    app.use(countWrites(activity));
    app.use(async (ctx) => {
      seen[ctx.method] = activity.busy;
      if (ctx.method === 'PUT') throw new Error('failed');
      ctx.body = 'ok';
    });
    app.silent = true;
    const server = app.listen(0);
    try {
      const { port } = server.address() as { port: number };
      for (const method of ['GET', 'POST', 'PUT', 'DELETE']) await fetch(`http://127.0.0.1:${port}/`, { method });
    } finally {
      server.close();
    }
    expect(seen).toEqual({ GET: false, POST: true, PUT: true, DELETE: true });
    // Each answered, the failed one too: nothing is left in flight.
    expect(activity.busy).toBe(false);
  });
});
