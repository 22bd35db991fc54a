// A delivery run that reads `webhook_due` between the two writes of a new delivery (entry, then delivery) or of a
// redelivery (entry, then the delivery made pending again) must not drop the entry: the delivery would never be
// sent. (Seen in CI: a redelivery asked for while a run was going never arrived.) Entries left by a crash still go.
import { beforeEach, expect, it } from 'vitest';
import { scratchDatabase } from '../../test/scratch-db.js';
import { WebhookDeliveryStore, type WebhookDelivery } from './delivery-store.js';

const { db } = await scratchDatabase('due_race');
const store = new WebhookDeliveryStore(db);
const due = db.collection<{ _id: string; shopId: number; subscriptionId: number; nextAttempt: Date }>('webhook_due');
const deliveries = db.collection<WebhookDelivery>('webhook_deliveries');

beforeEach(async () => {
  await due.deleteMany({});
  await deliveries.deleteMany({});
});

const delivery = (id: string, at: Date, status: WebhookDelivery['status'] = 'pending'): WebhookDelivery => ({
  _id: id,
  eventId: id.split(':').slice(0, 2).join(':'),
  subscriptionId: 1,
  shopId: 7,
  topic: 'reviews.created',
  body: '{}',
  status,
  attempts: status === 'pending' ? 0 : 1,
  failures: 0,
  retries: true,
  nextAttempt: at,
  created: at,
  completed: status === 'pending' ? null : at,
});

it('keeps a young entry whose delivery is not written yet, and sends it once it is', async () => {
  const now = new Date();
  await due.insertOne({ _id: '10:1:1', shopId: 7, subscriptionId: 1, nextAttempt: now });
  expect(await store.due(now, 10)).toEqual([]);
  expect(await due.countDocuments({ _id: '10:1:1' })).toBe(1);
  await deliveries.insertOne(delivery('10:1:1', now));
  expect((await store.due(now, 10)).map((d) => d._id)).toEqual(['10:1:1']);
});

it('keeps the entry of a redelivery written before the delivery is made pending again', async () => {
  const sent = new Date(Date.now() - 3_600_000);
  await deliveries.insertOne(delivery('11:1:1', sent, 'delivered'));
  const now = new Date();
  // redeliver(): the entry first …
  await due.insertOne({ _id: '11:1:1', shopId: 7, subscriptionId: 1, nextAttempt: now });
  expect(await store.due(now, 10)).toEqual([]);
  // … then the delivery.
  await deliveries.updateOne({ _id: '11:1:1' }, { $set: { status: 'pending', nextAttempt: now, completed: null } });
  expect((await store.due(now, 10)).map((d) => d._id)).toEqual(['11:1:1']);
});

it('drops an entry left without a pending delivery for more than a minute', async () => {
  const now = new Date();
  const old = new Date(now.getTime() - 120_000);
  await due.insertOne({ _id: '12:1:1', shopId: 7, subscriptionId: 1, nextAttempt: old });
  await deliveries.insertOne(delivery('13:1:1', old, 'delivered'));
  await due.insertOne({ _id: '13:1:1', shopId: 7, subscriptionId: 1, nextAttempt: old });
  await store.due(now, 10);
  expect(await due.countDocuments({ _id: { $in: ['12:1:1', '13:1:1'] } })).toBe(0);
});

it('sends a redelivery asked for as soon as the log shows the attempt, before the attempt was finished', async () => {
  // Seen in CI: the shop saw the first attempt in the log and redelivered; the attempt's outcome, stored after the
  // log entry, marked the delivery delivered again and deleted the redelivery's due entry: it was never sent.
  const start = new Date();
  const pending = delivery('14:1:1', start);
  await deliveries.insertOne(pending);
  await due.insertOne({ _id: '14:1:1', shopId: 7, subscriptionId: 1, nextAttempt: start });
  const recorder = new WebhookDeliveryStore(db);
  const insertLog = recorder.log.insertMany.bind(recorder.log);
  // The shop's click, the moment the log entry is there.
  recorder.log.insertMany = (async (docs: Parameters<typeof insertLog>[0]) => {
    const written = await insertLog(docs);
    const seen = await store.find(1, '14:1');
    await store.redeliver(seen!, new Date());
    return written;
  }) as typeof recorder.log.insertMany;
  await recorder.recordAttempts([
    {
      delivery: pending,
      attempt: { time: start, status: 200, error: null, durationMs: 5 },
      outcome: { kind: 'delivered' },
    },
  ]);
  const later = new Date(Date.now() + 1000);
  expect((await store.due(later, 10)).map((d) => ({ id: d._id, retries: d.retries }))).toEqual([
    { id: '14:1:1', retries: false },
  ]);
});
