// The start-up migration of the delivery log's field names (docs/decisions.md, "Stored field names"): entries an
// older version wrote to `webhook_delivery_log` as `eventId`/`durationMs` are shown by
// GET /api/1.0/webhooks/{id}/deliveries.json exactly as before once copied to `webhook_attempts`, entries already
// there are left alone, a copy repeated after a crash adds nothing twice, and a marked migration does nothing.
import { ObjectId } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, withAuth, type TestApp } from '../../test/harness.js';
import type { Webshop } from '../webshops/store.js';
import { migrateWebhookLogNames } from './webhook-log-names.js';

const MARKER = 'webhook_delivery_log.public_names';

let t: TestApp;
let shop: Webshop;
let webhookId: number;

beforeAll(async () => {
  t = await startTestApp();
  shop = await t.createShop();
  const res = await t.fetch(withAuth('/api/1.0/webhook.json', shop), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    // Switched off: nothing is sent, so the log holds only what the test writes.
    body: JSON.stringify({ url: 'https://hooks.example/log', topic: 'reviews.created', is_active: false }),
  });
  webhookId = (await res.json()).data.webhook_id;
});
afterAll(() => t.close());

const legacyLog = () => t.db.collection('webhook_delivery_log');
const log = () => t.db.collection('webhook_attempts');

/** A log entry as stored; `names` picks the field names of the version that wrote it. */
function entry(names: 'old' | 'new', eventId: string, at: string, durationMs: number) {
  const shared = {
    _id: new ObjectId(),
    subscriptionId: webhookId,
    shopId: shop.id,
    deliveryId: `${eventId}:${webhookId}`,
    topic: 'reviews.created',
    attempt: 1,
    time: new Date(at),
    status: 500,
    error: 'HTTP 500',
    redelivery: false,
  };
  return names === 'old'
    ? { ...shared, eventId, durationMs }
    : { ...shared, event_id: eventId, duration_ms: durationMs };
}

async function shownLog() {
  const res = await t.fetch(withAuth(`/api/1.0/webhooks/${webhookId}/deliveries.json`, shop));
  expect(res.status).toBe(200);
  return res.json();
}

const shown = (eventId: string, time: string, durationMs: number) => ({
  time,
  topic: 'reviews.created',
  event_id: eventId,
  attempt: 1,
  http_status: 500,
  error: 'HTTP 500',
  duration_ms: durationMs,
  redelivery: false,
});

describe('the delivery log’s public names', () => {
  it('are migrated at start-up (the marker is there once the app has started)', async () => {
    expect(await t.db.collection('migrations').findOne({ _id: MARKER as never })).not.toBeNull();
  });

  it('show entries of an older version as before, keep the new ones, and a repeat copies nothing twice', async () => {
    const old = [entry('old', '7:1', '2026-11-20T10:00:00Z', 42), entry('old', '7:2', '2026-11-20T11:00:00Z', 0)];
    await legacyLog().insertMany(old);
    await log().insertOne(entry('new', '8:1', '2026-11-20T12:00:00Z', 17));
    await t.db.collection('migrations').deleteOne({ _id: MARKER as never });

    expect(await migrateWebhookLogNames(t.services)).toBe(2);

    const expected = [
      shown('8:1', '2026-11-20 12:00:00', 17),
      shown('7:2', '2026-11-20 11:00:00', 0),
      shown('7:1', '2026-11-20 10:00:00', 42),
    ];
    expect(await shownLog()).toEqual(expected);
    expect(await log().countDocuments({ eventId: { $exists: true } })).toBe(0);
    expect(await legacyLog().countDocuments({})).toBe(0);

    // A crash after the copy, before the old collection was dropped: the next start copies again, adding nothing.
    await legacyLog().insertMany(old);
    await t.db.collection('migrations').deleteOne({ _id: MARKER as never });
    expect(await migrateWebhookLogNames(t.services)).toBe(0);
    expect(await shownLog()).toEqual(expected);

    // Marked done: a later start only reads the marker.
    await legacyLog().insertOne(entry('old', '9:1', '2026-11-20T13:00:00Z', 5));
    expect(await migrateWebhookLogNames(t.services)).toBe(0);
    expect(await shownLog()).toEqual(expected);
  });

  it('are what new attempts are stored under', async () => {
    const before = await log().countDocuments({});
    await t.services.webhookDeliveries.recordAttempts([
      {
        delivery: {
          _id: `10:1:${webhookId}`,
          eventId: '10:1',
          subscriptionId: webhookId,
          shopId: shop.id,
          topic: 'reviews.created',
          body: '{}',
          status: 'pending',
          attempts: 0,
          failures: 0,
          retries: true,
          nextAttempt: new Date(),
          created: new Date(),
          completed: null,
        },
        attempt: { time: new Date('2026-11-21T09:00:00Z'), status: 204, error: null, durationMs: 12 },
        outcome: { kind: 'delivered' },
      },
    ]);
    expect(await log().countDocuments({})).toBe(before + 1);
    expect(
      await log().findOne(
        { event_id: '10:1' },
        { projection: { _id: 0, event_id: 1, duration_ms: 1, eventId: 1, durationMs: 1 } },
      ),
    ).toEqual({
      event_id: '10:1',
      duration_ms: 12,
    });
  });
});
