// One shop's hanging receivers must not hold up another shop's webhooks: each shop gets at most its share of the
// parallel requests, and shops take turns. Real receivers: one that never answers in time, one that answers at once.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, withAuth, type TestApp } from '../../test/harness.js';
import { startReceiver, type Receiver } from '../../test/webhook-receiver.js';
import type { Webshop } from '../webshops/store.js';
import { TIMEOUT_MS } from './send.js';
import { MAX_SUBSCRIPTIONS_PER_SHOP } from './routes.js';

let t: TestApp;
let receiver: Receiver;

beforeAll(async () => {
  receiver = await startReceiver();
  t = await startTestApp({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', SCHEDULER_POLL_MS: '200' });
  await t.services.scheduler.start();
});
afterAll(async () => {
  // Closing the receiver first ends the hanging requests, so stopping does not wait for their timeouts.
  await receiver.close();
  await t.services.scheduler.stop();
  await t.close();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Longer than the service waits for an answer: every request to it ends in a timeout. */
const HANG_MS = TIMEOUT_MS * 3;

async function subscribe(as: Webshop, path: string, { hang = false } = {}): Promise<number> {
  const res = await t.fetch(withAuth('/api/1.0/webhook.json', as), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ url: receiver.url + path, topic: 'reviews.created' }),
  });
  const body = await res.json();
  expect(body.status).toBe('success');
  receiver.secrets.set(path, body.data.secret);
  if (hang) receiver.responders.set(path, () => ({ status: 200, delayMs: HANG_MS }));
  return body.data.webhook_id;
}

async function importReview(as: Webshop, name: string): Promise<number> {
  const res = await t.admin(`/admin/api/webshops/${as.id}/reviews`, {
    method: 'POST',
    json: { name, email: 'jane@example.com', rating: 5, comment: 'Fine', country: 'NL' },
  });
  expect(res.status).toBe(201);
  return (await res.json()).id;
}

const hanging = (prefix: string) => receiver.received.filter((r) => r.path.startsWith(prefix)).length;
/** The hanging requests still open, and those over (given up on), when `path` received its request. */
function hangingWhen(path: string, prefix: string): () => { open: number; ended: number } | undefined {
  let seen: { open: number; ended: number } | undefined;
  receiver.responders.set(path, () => {
    const requests = receiver.received.filter((r) => r.path.startsWith(prefix));
    const ended = requests.filter((r) => r.endSeq !== undefined).length;
    seen = { open: requests.length - ended, ended };
    return 200;
  });
  return () => seen;
}

it("sends a shop's new review at once while another shop's receivers hang, which get at most two requests at a time", async () => {
  const slow = await t.createShop({ name: 'Slow Receivers' });
  const fast = await t.createShop({ name: 'Fast Receiver' });
  for (let i = 0; i < MAX_SUBSCRIPTIONS_PER_SHOP; i++) await subscribe(slow, `/hang-new/${i}`, { hang: true });
  await subscribe(fast, '/fast-new');
  const hangingWhenFast = hangingWhen('/fast-new', '/hang-new/');

  await importReview(slow, 'Slow');
  await receiver.waitFor(() => hanging('/hang-new/') >= 2);
  const id = await importReview(fast, 'Fast');
  await receiver.waitFor(() => receiver.at('/fast-new').length === 1, TIMEOUT_MS * 4);
  expect(receiver.at('/fast-new')[0]).toMatchObject({ eventId: `${id}:1`, verified: true });
  // While the slow shop's requests still hung (they end only when the service gives up on them, after TIMEOUT_MS;
  // until then they hold every lane that shop has): the fast shop did not wait for one of them.
  expect(hangingWhenFast()).toEqual({ open: 2, ended: 0 });
  await sleep(300);
  expect(hanging('/hang-new/')).toBe(2);
});

it("sends another shop's due retry at once while a backlog of hanging deliveries waits its turn", async () => {
  const slow = await t.createShop({ name: 'Slow Backlog' });
  const fast = await t.createShop({ name: 'Fast Retry' });
  const slowHooks: number[] = [];
  for (let i = 0; i < 5; i++) slowHooks.push(await subscribe(slow, `/hang-due/${i}`, { hang: true }));
  const fastHook = await subscribe(fast, '/fast-due');
  const hangingWhenFast = hangingWhen('/fast-due', '/hang-due/');

  // Due deliveries as a crash or an outage leaves them: the slow shop's are older, so they come first by due time.
  const now = t.services.now().getTime();
  const backlog = [];
  for (let event = 0; event < 12; event++) {
    for (const hook of slowHooks) backlog.push(pending(`${900_000 + event}:1`, hook, slow.id, now - 600_000 + event));
  }
  await t.services.webhookDeliveries.createMany([...backlog, pending('999999:1', fastHook, fast.id, now - 1_000)]);

  t.services.scheduler.trigger('webhooks.deliver');
  await receiver.waitFor(() => receiver.at('/fast-due').length === 1, TIMEOUT_MS * 4);
  expect(receiver.at('/fast-due')[0]).toMatchObject({ eventId: '999999:1', verified: true });
  // Before any of the backlog's requests was given up on (until then they hold the slow shop's lanes).
  expect(hangingWhenFast()).toMatchObject({ ended: 0 });
  await sleep(300);
  expect(hanging('/hang-due/')).toBe(2);
});

it('sends all of a backlog larger than a batch, a batch after the other', async () => {
  const shop = await t.createShop({ name: 'Big Backlog' });
  const hook = await subscribe(shop, '/backlog');
  const now = t.services.now().getTime();
  const backlog = Array.from({ length: 150 }, (_, i) => pending(`${800_000 + i}:1`, hook, shop.id, now - 60_000 + i));
  await t.services.webhookDeliveries.createMany(backlog);
  t.services.scheduler.trigger('webhooks.deliver');
  // 15-20 s on a quiet machine: waited for as long as a busy one may need.
  await receiver.waitFor(() => new Set(receiver.at('/backlog').map((r) => r.eventId)).size === 150, 150_000);
}, 180_000);

/** A delivery as a crash or an outage leaves it: due at `due`, after a failed attempt. */
function pending(eventId: string, subscriptionId: number, shopId: number, due: number) {
  return {
    _id: `${eventId}:${subscriptionId}`,
    eventId,
    subscriptionId,
    shopId,
    topic: 'reviews.created' as const,
    body: JSON.stringify({ id: eventId }),
    status: 'pending' as const,
    attempts: 1,
    failures: 1,
    retries: true,
    nextAttempt: new Date(due),
    created: new Date(due - 3_600_000),
    completed: null,
  };
}
