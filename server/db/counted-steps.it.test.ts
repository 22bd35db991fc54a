import { expect, it } from 'vitest';
import { CountedSteps } from './counted-steps.js';
import { scratchDatabase } from '../../test/scratch-db.js';

const { db } = await scratchDatabase('counted_steps');

it('stores a burst of steps together after a pause, and counts the ones not stored yet for this process meanwhile', async () => {
  const counters = db.collection<{ _id: number; v?: number }>('counters');
  const steps = new CountedSteps(counters, 'v', 200);
  for (let i = 0; i < 30; i++) steps.step(1);
  steps.step(2);
  expect(await counters.countDocuments({})).toBe(0);
  expect([steps.pendingOf(1), steps.pendingOf(2), steps.pendingOf(3)]).toEqual([30, 1, 0]);
  // One write of the burst, but its two documents may land one after the other (FerretDB is not atomic across them).
  await expect
    .poll(async () => [(await counters.findOne({ _id: 1 }))?.v, (await counters.findOne({ _id: 2 }))?.v], {
      timeout: 60_000,
    })
    .toEqual([30, 1]);
  expect(steps.pendingOf(1)).toBe(0);
  // Later steps add to the stored count; flush writes them at once.
  steps.step(1);
  await steps.flush();
  expect((await counters.findOne({ _id: 1 }))?.v).toBe(31);
  expect(steps.pendingOf(1)).toBe(0);
});
