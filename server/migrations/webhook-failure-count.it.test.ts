// The start-up rename of the subscriptions' internal `consecutive_failures` to `consecutiveFailures`
// (docs/decisions.md, "Stored field names"): a run of failures counted by an older version goes on counting, so the
// subscription is switched off after the same number of failed events; a second run finds nothing.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { migrateWebhookFailureCount } from './webhook-failure-count.js';

const MARKER = 'webhook_subscriptions.consecutive_failures';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const subscriptions = () => t.db.collection<Record<string, unknown>>('webhook_subscriptions');
const forgetMarker = () => t.db.collection('migrations').deleteOne({ _id: MARKER as never });

it('runs at start-up, and keeps counting a run of failures an older version stored', async () => {
  expect(await t.db.collection('migrations').findOne({ _id: MARKER as never })).not.toBeNull();
  const shop = await t.createShop();
  const failing = await t.services.webhooks.create(shop.id, {
    url: 'https://hooks.example/a',
    topic: 'reviews.created',
    is_active: true,
  });
  const fine = await t.services.webhooks.create(shop.id, {
    url: 'https://hooks.example/b',
    topic: 'reviews.created',
    is_active: true,
  });
  // As an older version stored them: two failed events in a row, and none.
  await subscriptions().updateOne(
    { id: failing.id },
    { $set: { consecutive_failures: 2 }, $unset: { consecutiveFailures: '' } },
  );
  await subscriptions().updateOne(
    { id: fine.id },
    { $set: { consecutive_failures: 0 }, $unset: { consecutiveFailures: '' } },
  );

  await forgetMarker();
  expect(await migrateWebhookFailureCount(t.services)).toBe(2);
  expect(await subscriptions().countDocuments({ consecutive_failures: { $exists: true } })).toBe(0);
  const stored = await subscriptions().findOne({ id: failing.id }, { projection: { _id: 0 } });
  expect(stored).toMatchObject({ consecutiveFailures: 2, is_active: true, url: 'https://hooks.example/a' });

  // The third failed event in a row switches it off when three are allowed; the other one is not touched.
  expect(await t.services.webhooks.recordFailure(failing.id, 3, 'HTTP 500')).toBe(true);
  expect(await t.services.webhooks.recordFailure(fine.id, 3, 'HTTP 500')).toBe(false);
  expect((await t.services.webhooks.getForShop(shop.id, failing.id))?.is_active).toBe(false);

  await forgetMarker();
  expect(await migrateWebhookFailureCount(t.services)).toBe(0);
});
