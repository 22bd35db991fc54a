// Webhook work on the scheduler (see delivery.ts for the two paths):
// - `webhooks.written` runs at once when this process writes a review event: it dispatches and sends the reviews
//   just written, without searching the database. In a process that wrote nothing (a worker at start) it asks for
//   the full run instead.
// - `webhooks.deliver` is the full run: undispatched events and due deliveries. Every 30 s as a safety net, when the
//   next retry falls due (a timer), on redelivery, and when an API-only process wrote an event (its wake-up).
// - `webhooks.maintain` repairs events lost in a crash and prunes old history, every minute.
// Both sending drains only queue their attempts in the process's lanes (lanes.ts), which send them fairly between
// shops; a drain that waited for the requests would hold up the next one behind one shop's slow receivers.
import type { Services } from '../services.js';
import { GroupCommit } from '../db/group-commit.js';
import {
  dispatchEvents,
  PARALLEL_SENDS,
  PARALLEL_SENDS_PER_SHOP,
  queueDue,
  queueWritten,
  ReviewSnapshots,
  type DeliveryDeps,
} from './delivery.js';
import { ShopLanes } from './lanes.js';

export const WRITTEN_JOB = 'webhooks.written';
export const DELIVER_JOB = 'webhooks.deliver';
export const MAINTAIN_JOB = 'webhooks.maintain';
const DELIVER_EVERY_MS = 30_000;
const MAINTAIN_EVERY_MS = 60_000;
/** How long finished deliveries and their log are kept. */
export const HISTORY_DAYS = 30;
/**
 * Dispatched events are only the hand-over from the review store (the deliveries hold the history); finding the
 * undispatched ones is a scan on FerretDB, so the collection is kept to the last hour.
 */
const DISPATCHED_EVENTS_KEPT_MS = 3_600_000;

export function registerWebhookJobs(services: Services): void {
  const { scheduler, reviews, webhookDeliveries, now } = services;
  const snapshots = new ReviewSnapshots();
  // What the last full runs left for later: a run is asked for when there may be room for it.
  const leftOut = new Set<number>();
  let lanesWereFull = false;
  const lanes = new ShopLanes({
    total: PARALLEL_SENDS,
    perShop: PARALLEL_SENDS_PER_SHOP,
    onDrained: (shopId) => {
      if (!leftOut.delete(shopId) && !lanesWereFull) return;
      lanesWereFull = false;
      scheduler.trigger(DELIVER_JOB);
    },
  });
  const deps: DeliveryDeps & { lanes: ShopLanes } = {
    config: services.config,
    log: services.log,
    now,
    reviews,
    webhooks: services.webhooks,
    deliveries: webhookDeliveries,
    snapshots,
    lanes,
    onRetry: (at) => wakeAt(at),
    recorder: new GroupCommit((records) => webhookDeliveries.recordAttempts(records)),
  };
  scheduler.onStop(() => lanes.close());

  // The next retry is often seconds away: wake up for it instead of waiting for the periodic run.
  let wakeUp: NodeJS.Timeout | undefined;
  let wakeUpAt = Infinity;
  const wakeAt = (due: Date | undefined) => {
    if (!due || due.getTime() >= wakeUpAt) return;
    const delay = Math.max(0, due.getTime() - now().getTime());
    if (delay >= DELIVER_EVERY_MS) return;
    clearTimeout(wakeUp);
    wakeUpAt = due.getTime();
    wakeUp = setTimeout(() => {
      wakeUpAt = Infinity;
      scheduler.trigger(DELIVER_JOB);
    }, delay + 10);
    wakeUp.unref();
  };

  const fullRun = async (touch: () => Promise<void>) => {
    await dispatchEvents(deps);
    const leftOver = await queueDue(deps, touch);
    // A shop's lanes may have emptied while the run searched the database: its onDrained has passed, so it gets
    // its next run now instead of at the periodic one.
    let runAgain = false;
    for (const shopId of leftOver.shops) {
      if (lanes.isIdle(shopId)) runAgain = true;
      else leftOut.add(shopId);
    }
    if (leftOver.lanesFull && lanes.waitingCount === 0) runAgain = true;
    else lanesWereFull ||= leftOver.lanesFull;
    if (runAgain) scheduler.trigger(DELIVER_JOB);
    // Not on the hot path: the one search that sees every retry still to come, whoever scheduled it.
    wakeAt(await webhookDeliveries.nextDue(now()));
  };

  scheduler.define(WRITTEN_JOB, async () => {
    const written = snapshots.takeAll();
    if (written.length === 0) return scheduler.trigger(DELIVER_JOB);
    await queueWritten(deps, written);
  });

  scheduler.define(DELIVER_JOB, async ({ touch }) => fullRun(touch), DELIVER_EVERY_MS);

  scheduler.define(
    MAINTAIN_JOB,
    async () => {
      if ((await reviews.recordPendingEvents()) > 0) scheduler.trigger(DELIVER_JOB);
      await webhookDeliveries.prune(new Date(now().getTime() - HISTORY_DAYS * 86_400_000), new Date(now().getTime() - 86_400_000));
      await reviews.events.deleteMany({ dispatched: true, created: { $lt: new Date(now().getTime() - DISPATCHED_EVENTS_KEPT_MS) } });
    },
    MAINTAIN_EVERY_MS,
  );

  // Only writes that recorded an event have something to deliver.
  reviews.onChange((_shopId, review) => {
    if (!review.pendingEvent) return;
    // An API-only process sends nothing itself: the worker it wakes finds the event in the database.
    if (services.config.role === 'api') return scheduler.trigger(DELIVER_JOB);
    snapshots.remember(review);
    scheduler.trigger(WRITTEN_JOB);
  });
}

/** Queues a redelivery or other new work for the senders. */
export const triggerDelivery = (services: Pick<Services, 'scheduler'>): void => services.scheduler.trigger(DELIVER_JOB);
