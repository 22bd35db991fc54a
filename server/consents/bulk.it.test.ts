// Bulk updates of the consent receipts and their orders' index are sent in batches: FerretDB 1.24 never answers an
// update command of 100 or more statements (and holds up the commands after it), so one large batch of expired
// pop-up reviews stalled the database.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const within = <T>(promise: Promise<T>, ms: number) =>
  Promise.race([
    promise,
    new Promise<never>((_, fail) => setTimeout(() => fail(new Error(`no answer within ${ms} ms`)), ms)),
  ]);

it('detaches the reviews of 150 receipts at once, and the database still answers afterwards', async () => {
  const receipts = Array.from({ length: 150 }, (_, i) => ({ shopId: 1, receipt: `receipt-${i}` }));
  // Receipts as stored, each with the review written under it (only the fields the update touches matter here).
  await t.services.db
    .collection<{ _id: string }>('consents')
    .insertMany(receipts.map((r, i) => ({ _id: r.receipt, shopId: 1, reviewId: i + 1 })));
  await within(t.services.consents.detachReviews(receipts), 20_000);
  expect(await within(t.services.db.command({ ping: 1 }), 5_000)).toMatchObject({ ok: 1 });
  expect(await within(t.services.webshops.count(), 5_000)).toBeGreaterThanOrEqual(0);
}, 40_000);
