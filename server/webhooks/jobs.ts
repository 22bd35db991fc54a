// Webhook work on the scheduler (see delivery.ts for the two paths):
// - `webhooks.written` runs at once when this process writes a review event: it dispatches and sends the reviews
//   just written, without searching the database. In a worker it also takes the events that API-only processes
//   named in their pushed wake-ups (read by `_id` from the event queue). When it has nothing of either (a worker at
//   start, a wake-up through a marker) it asks for the full run instead.
// - `webhooks.deliver` is the full run: the event queue and the due deliveries (small collections that hold only
//   what is still to do). Every 30 s as a safety net, when the next retry falls due (a timer), on redelivery, and
//   when an API-only process wrote an event and could not push its id.
// - `reviews.repair` finishes review writes that a crash interrupted before their event and e-mails were queued
//   (it reads the few unfinished-write markers), every minute;
// - `webhooks.prune` deletes history older than 30 days, and the claims runs that died left, every hour: a search
//   of the history, so not more often.
// Both sending drains only queue their attempts in the process's lanes (lanes.ts), which send them fairly between
// shops; a drain that waited for the requests would hold up the next one behind one shop's slow receivers.
import type { Services } from '../services.js';
import { JOB } from '../jobs/names.js';
import { GroupCommit } from '../db/group-commit.js';
import {
  dispatchEvents,
  PARALLEL_SENDS,
  PARALLEL_SENDS_PER_SHOP,
  queueDue,
  queueEvents,
  queueWritten,
  ReviewSnapshots,
  type DeliveryDeps,
} from './delivery.js';
import { ShopLanes } from './lanes.js';

const WRITTEN_JOB = 'webhooks.written';
const DELIVER_JOB = 'webhooks.deliver';
const REPAIR_JOB = 'reviews.repair';
const PRUNE_JOB = 'webhooks.prune';
const DELIVER_EVERY_MS = 30_000;
const REPAIR_EVERY_MS = 60_000;
/** A review write and what follows it take milliseconds: one unfinished for this long was interrupted. */
const INTERRUPTED_AFTER_MS = 60_000;
const PRUNE_EVERY_MS = 3_600_000;
/** How long finished deliveries and their log are kept. */
const HISTORY_DAYS = 30;

export function registerWebhookJobs(
  services: Pick<
    Services,
    'config' | 'helpful' | 'log' | 'now' | 'reviewEvents' | 'reviews' | 'scheduler' | 'webhookDeliveries' | 'webhooks'
  >,
): void {
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
    events: services.reviewEvents,
    webhooks: services.webhooks,
    deliveries: webhookDeliveries,
    snapshots,
    lanes,
    onRetry: (at) => wakeAt(at),
    recorder: new GroupCommit((records) => webhookDeliveries.recordAttempts(records)),
    helpfulCounts: (shopId) => services.helpful.countsOf(shopId),
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
    const started = now();
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
    // Not on the hot path: the one search that sees every retry still to come, whoever scheduled it. From the run's
    // start, not from now: a retry that fell due while this run searched (two failures a few ms apart) was not
    // taken by it, and must not wait for the periodic run.
    wakeAt(await webhookDeliveries.nextDue(started));
  };

  // Event ids pushed by API-only processes, until the next run of the fast path reads them.
  const pushed = new Set<string>();
  scheduler.define(
    WRITTEN_JOB,
    async () => {
      const written = snapshots.takeAll();
      const ids = [...pushed];
      pushed.clear();
      if (written.length === 0 && ids.length === 0) return scheduler.trigger(DELIVER_JOB);
      if (written.length) await queueWritten(deps, written);
      // An id not found was dispatched already (by a full run, or a repeated push).
      if (ids.length) await queueEvents(deps, await services.reviewEvents.byIds(ids));
    },
    undefined,
    {
      receive: (ids) => {
        for (const id of ids) pushed.add(id);
      },
    },
  );

  scheduler.define(DELIVER_JOB, async ({ touch }) => fullRun(touch), DELIVER_EVERY_MS);

  scheduler.define(
    REPAIR_JOB,
    async () => {
      if ((await reviews.finishInterruptedWrites(new Date(now().getTime() - INTERRUPTED_AFTER_MS))) === 0) return;
      scheduler.trigger(DELIVER_JOB);
      scheduler.trigger(JOB.reviewMail);
    },
    REPAIR_EVERY_MS,
  );

  scheduler.define(
    PRUNE_JOB,
    async () => {
      await webhookDeliveries.prune(
        new Date(now().getTime() - HISTORY_DAYS * 86_400_000),
        new Date(now().getTime() - 86_400_000),
      );
      // Claims on events left by runs that died (a live run's lease is a minute).
      await services.reviewEvents.prune(new Date(now().getTime() - 86_400_000));
    },
    PRUNE_EVERY_MS,
  );

  // Only writes that recorded an event have something to deliver.
  reviews.onChange((_shopId, review) => {
    if (!review.pendingEvent) return;
    // An API-only process sends nothing itself: it names the event (queued already) in the wake-up it pushes to
    // the worker, which reads it by `_id`; without a push the worker's full run finds it.
    if (services.config.role !== 'api') snapshots.remember(review);
    scheduler.trigger(WRITTEN_JOB, `${review.id}:${review.version}`);
  });
}

/** Queues a redelivery or other new work for the senders. */
export const triggerDelivery = (services: Pick<Services, 'scheduler'>): void => services.scheduler.trigger(DELIVER_JOB);
