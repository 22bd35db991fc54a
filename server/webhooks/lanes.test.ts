import { describe, expect, it } from 'vitest';
import { ShopLanes } from './lanes.js';

/** A task that runs until released, recording when it started. */
function gate(log: string[], name: string) {
  let release!: () => void;
  const done = new Promise<void>((r) => (release = r));
  return {
    run: async () => {
      log.push(name);
      await done;
    },
    release,
  };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('ShopLanes', () => {
  it('runs at most perShop tasks of a shop and total tasks in all, and lets shops take turns', async () => {
    const started: string[] = [];
    const lanes = new ShopLanes({ total: 4, perShop: 2 });
    const gates = new Map<string, ReturnType<typeof gate>>();
    const add = (shop: number, name: string) => {
      const g = gate(started, name);
      gates.set(name, g);
      expect(lanes.add(shop, name, g.run)).toBe(true);
    };
    for (let i = 0; i < 6; i++) add(1, `a${i}`);
    for (let i = 0; i < 3; i++) add(2, `b${i}`);
    add(3, 'c0');
    await tick();
    // Shop 1 fills its two lanes, shop 2 the other two; the rest waits.
    expect(started).toEqual(['a0', 'a1', 'b0', 'b1']);
    expect(lanes.waitingCount).toBe(6);
    expect([1, 2, 3, 4].map((shop) => lanes.waitingFor(shop))).toEqual([4, 1, 1, 0]);
    expect(lanes.waitingShops()).toEqual([1, 2, 3]);

    // A free lane goes to the waiting shop with the fewest requests running, whoever's lane it was.
    gates.get('a0')!.release();
    await tick();
    expect(started.at(-1)).toBe('c0');
    // Then to shops in turn: shop 1 is first in line (shop 2 has as many running, and comes after it).
    gates.get('b0')!.release();
    await tick();
    expect(started.at(-1)).toBe('a2');
    // Shop 1 just had its turn: the next free lane is shop 2's.
    gates.get('c0')!.release();
    await tick();
    expect(started.at(-1)).toBe('b2');
    expect(lanes.waitingShops()).toEqual([1]);
  });

  it('queues an id once while it waits or runs, and again after it ended', async () => {
    const lanes = new ShopLanes({ total: 1, perShop: 1 });
    const started: string[] = [];
    const first = gate(started, 'x');
    expect(lanes.add(1, 'x', first.run)).toBe(true);
    expect(lanes.add(1, 'x', gate(started, 'x again').run)).toBe(false);
    expect(lanes.has('x')).toBe(true);
    first.release();
    await lanes.idle();
    expect(lanes.has('x')).toBe(false);
    expect(lanes.add(1, 'x', async () => undefined)).toBe(true);
    await lanes.idle();
  });

  it("tells when a shop's last task ended after some had to wait, once", async () => {
    const drained: number[] = [];
    const lanes = new ShopLanes({ total: 8, perShop: 1, onDrained: (shop) => drained.push(shop) });
    const started: string[] = [];
    const gates = [gate(started, '1'), gate(started, '2'), gate(started, 'alone')];
    lanes.add(7, '1', gates[0]!.run);
    lanes.add(7, '2', gates[1]!.run);
    lanes.add(8, 'alone', gates[2]!.run);
    gates[2]!.release();
    gates[0]!.release();
    await tick();
    expect(drained).toEqual([]);
    gates[1]!.release();
    await lanes.idle();
    await tick();
    expect(drained).toEqual([7]);
  });

  it('says whether anything of a shop runs or waits (a full run asks it after searching the database)', async () => {
    const lanes = new ShopLanes({ total: 8, perShop: 1 });
    const started: string[] = [];
    const gates = [gate(started, '1'), gate(started, '2')];
    expect(lanes.isIdle(7)).toBe(true);
    lanes.add(7, '1', gates[0]!.run);
    lanes.add(7, '2', gates[1]!.run);
    gates[0]!.release();
    await tick();
    expect(lanes.isIdle(7)).toBe(false);
    gates[1]!.release();
    await lanes.idle();
    expect(lanes.isIdle(7)).toBe(true);
  });

  it('drops waiting tasks on close and waits for the running ones', async () => {
    const lanes = new ShopLanes({ total: 1, perShop: 1 });
    const started: string[] = [];
    const running = gate(started, 'running');
    lanes.add(1, 'running', running.run);
    lanes.add(2, 'waiting', gate(started, 'waiting').run);
    let closed = false;
    const closing = lanes.close().then(() => (closed = true));
    await tick();
    expect(closed).toBe(false);
    expect(lanes.add(3, 'late', async () => undefined)).toBe(false);
    running.release();
    await closing;
    expect(started).toEqual(['running']);
  });

  it('keeps going when a task throws', async () => {
    const lanes = new ShopLanes({ total: 1, perShop: 1 });
    let ran = false;
    lanes.add(1, 'bad', async () => {
      throw new Error('boom');
    });
    lanes.add(1, 'good', async () => {
      ran = true;
    });
    await lanes.idle();
    expect(ran).toBe(true);
  });
});
