// The two steps of webhook delivery, run by the scheduler's drains (jobs.ts):
// 1. dispatch: review events (queued with each review write on a work queue, event-queue.ts) become one delivery per
//    active subscription of the shop and topic, then the event leaves the queue;
// 2. send: deliveries are claimed, POSTed and their outcome recorded (delivered, retry later, failed).
//
// Two paths share them. The fast path takes the reviews this process just wrote (from memory) and sends their new
// deliveries at once, without searching any collection (on FerretDB every filtered find is a scan); it creates them
// already leased to itself (`nextAttempt` a lease ahead), so no other sender sees them due and no claim is needed.
// The full path reads the event queue and the due deliveries (small collections: what is still to do) and claims
// each delivery before sending: for retries, redeliveries, other processes' writes, and whatever a crash left behind.
//
// Both paths queue their attempts in the process's sending lanes (lanes.ts) and return: a drain never waits for
// receivers, and one shop's slow receivers never hold up another shop's requests.
import { randomUUID } from 'node:crypto';
import type { Config } from '../config.js';
import type { GroupCommit } from '../db/group-commit.js';
import type { Logger } from '../log.js';
import type { Review, ReviewEvent } from '../reviews/model.js';
import type { EventQueue } from './event-queue.js';
import type { WebhookDeliveryStore, WebhookDelivery, AttemptOutcome, AttemptRecord } from './delivery-store.js';
import { isDelivered, payloadFor, retryDelayMs, signature } from './payload.js';
import type { ShopLanes } from './lanes.js';
import { postWebhook, type SendOptions, type SendResult } from './send.js';
import type { WebhookStore, WebhookSubscription } from './store.js';

/**
 * Reviews as this process wrote them, by event id (`<review id>:<version>`), until their event is dispatched. The
 * payload then shows exactly the version the event is about. Events written by other processes (or dropped here
 * when dispatching falls far behind) are found by the full path in the event queue, with the review as written.
 */
export class ReviewSnapshots {
  private readonly byEvent = new Map<string, Review>();

  constructor(private readonly max = 5000) {}

  remember(review: Review): void {
    if (!review.pendingEvent) return;
    this.byEvent.set(`${review.id}:${review.version}`, review);
    if (this.byEvent.size > this.max) this.byEvent.delete(this.byEvent.keys().next().value!);
  }

  take(eventId: string): Review | undefined {
    const review = this.byEvent.get(eventId);
    this.byEvent.delete(eventId);
    return review;
  }

  takeAll(): Review[] {
    const all = [...this.byEvent.values()];
    this.byEvent.clear();
    return all;
  }
}

export interface DeliveryDeps {
  config: Pick<Config, 'webhooks' | 'brandName' | 'baseUrl'>;
  log: Logger;
  now: () => Date;
  events: EventQueue;
  webhooks: WebhookStore;
  deliveries: WebhookDeliveryStore;
  snapshots?: ReviewSnapshots;
  /** The process's sending lanes: every attempt waits there for its shop's turn (needed to send, not to dispatch). */
  lanes?: ShopLanes;
  /** Told of every retry an attempt schedules, so that the sender can wake up for it. */
  onRetry?: (at: Date) => void;
  /** Writes attempt records in groups (see GroupCommit); without it each is written on its own. */
  recorder?: GroupCommit<AttemptRecord>;
  send?: (options: SendOptions) => Promise<SendResult>;
  /** The shop's "Helpful" counts (issue 20): the body carries the count as ratings.json would at dispatch. */
  helpfulCounts?: (shopId: number) => Promise<Map<number, number>>;
}

type SenderDeps = DeliveryDeps & { lanes: ShopLanes };

const EVENT_BATCH = 500;
const SEND_BATCH = 100;
/** Requests in flight per process, and per shop within that (see lanes.ts). */
export const PARALLEL_SENDS = 8;
export const PARALLEL_SENDS_PER_SHOP = 2;
/** Deliveries waiting for a lane in this process, at most: the rest stay in the database until there is room. */
const MAX_WAITING = 1000;
/**
 * The last of those places are for shops with nothing waiting: a shop whose receivers hang while its events keep
 * coming (up to WEBHOOK_MAX_PER_SHOP deliveries each) would otherwise fill them all and keep every other shop out.
 */
const RESERVED_WAITING = 100;
/** A claimed delivery is not due again before its request has surely ended: WEBHOOK_TIMEOUT_MS plus this. */
const LEASE_SLACK_MS = 5_000;
const leaseMs = (deps: Pick<DeliveryDeps, 'config'>) => deps.config.webhooks.timeoutMs + LEASE_SLACK_MS;
/** A fast-path lease is trusted only by an attempt that starts this soon after it was taken (see attempt). */
const FRESH_LEASE_MS = 1_000;

/**
 * Full path: turns undispatched events into deliveries, exactly once per event and subscription; returns events.
 * Each batch is claimed, so that two workers' runs split the queue; one that fails lets go of what it holds.
 */
export async function dispatchEvents(deps: DeliveryDeps): Promise<number> {
  const holder = randomUUID();
  let handled = 0;
  try {
    for (;;) {
      const events = await deps.events.take(holder, EVENT_BATCH);
      if (events.length === 0) return handled;
      await createDeliveries(deps, events);
      await deps.events.dispatched(
        events.map((e) => e._id),
        holder,
      );
      handled += events.length;
      if (events.length < EVENT_BATCH) return handled;
    }
  } finally {
    await deps.events.release(holder);
  }
}

/** Fast path: dispatches the events of reviews this process just wrote and queues their new deliveries. */
export function queueWritten(deps: SenderDeps, written: Review[]): Promise<number> {
  return dispatchAndSend(deps, eventsOf(written));
}

/**
 * Fast path for queued events named in a worker's pushed wake-up (an API-only process wrote them): read by `_id`,
 * dispatched and sent like the reviews this process writes itself.
 */
export function queueEvents(deps: SenderDeps, events: EventRef[]): Promise<number> {
  return dispatchAndSend(deps, events);
}

/**
 * The fast paths: deliveries made leased to this sender, queued in its lanes, and only then the events taken off the
 * queue. A failure in between leaves events that a full run dispatches again (creating nothing), never deliveries
 * leased to a sender that does not send them: those would wait for the lease to run out (WEBHOOK_TIMEOUT_MS + 5 s).
 */
async function dispatchAndSend(deps: SenderDeps, events: EventRef[]): Promise<number> {
  const leaseUntil = new Date(deps.now().getTime() + leaseMs(deps));
  const { created, subscriptions } = await createDeliveries(deps, events, leaseUntil);
  const queued = await queueSends(deps, created, { leased: true, subscriptions });
  await deps.events.dispatched(events.map((e) => e._id));
  return queued;
}

/** The events of reviews this process just wrote. */
function eventsOf(written: Review[]): EventRef[] {
  return written.map((review) => ({
    _id: `${review.id}:${review.version}`,
    shopId: review.shopId,
    reviewId: review.id,
    topic: review.pendingEvent!,
    review,
  }));
}

/** The events of reviews this process just wrote, turned into deliveries and taken off the queue. */
export async function dispatchWritten(deps: DeliveryDeps, written: Review[]) {
  const events = eventsOf(written);
  const result = await createDeliveries(deps, events);
  await deps.events.dispatched(events.map((e) => e._id));
  return result;
}

type EventRef = Pick<ReviewEvent, '_id' | 'shopId' | 'reviewId' | 'topic' | 'review'>;

/**
 * Creates the deliveries of these events (those that already exist are left alone); the caller then takes the events
 * off the queue. With `leaseUntil`, new deliveries are due only then: the caller sends them itself.
 */
async function createDeliveries(deps: DeliveryDeps, events: EventRef[], leaseUntil?: Date) {
  if (events.length === 0) return { created: [], subscriptions: [] };
  const subscriptions = await deps.webhooks.activeForShops([...new Set(events.map((e) => e.shopId))]);
  // Looked up by shop and topic: filtering them for each event would cost the batch's events times its shops'
  // subscriptions (up to WEBHOOK_MAX_PER_SHOP each).
  const byShopTopic = new Map<string, WebhookSubscription[]>();
  for (const s of subscriptions) {
    const key = `${s.shopId}:${s.topic}`;
    const same = byShopTopic.get(key);
    if (same) same.push(s);
    else byShopTopic.set(key, [s]);
  }
  const wantedBy = (e: EventRef) => byShopTopic.get(`${e.shopId}:${e.topic}`) ?? [];
  const now = deps.now();
  const deliveries: WebhookDelivery[] = [];
  const counts = new Map<number, Promise<Map<number, number>>>();
  const countOf = async (shopId: number, reviewId: number) => {
    if (!deps.helpfulCounts) return undefined;
    if (!counts.has(shopId)) counts.set(shopId, deps.helpfulCounts(shopId));
    return (await counts.get(shopId)!).get(reviewId) ?? 0;
  };
  for (const event of events) {
    // The snapshot this process kept is dropped either way: the event is dispatched now.
    deps.snapshots?.take(event._id);
    const wanted = wantedBy(event);
    if (wanted.length === 0) continue;
    const helpful = await countOf(event.shopId, event.review.id);
    const body = payloadFor(event.topic, event.review, deps.config.baseUrl, helpful);
    for (const subscription of wanted) deliveries.push(newDelivery(event, subscription, body, now, leaseUntil ?? now));
  }
  const created = await deps.deliveries.createMany(deliveries);
  return { created, subscriptions };
}

function newDelivery(
  event: EventRef,
  subscription: WebhookSubscription,
  body: string,
  now: Date,
  due: Date,
): WebhookDelivery {
  return {
    _id: `${event._id}:${subscription.id}`,
    eventId: event._id,
    subscriptionId: subscription.id,
    shopId: event.shopId,
    topic: event.topic,
    body,
    status: 'pending',
    attempts: 0,
    failures: 0,
    retries: true,
    nextAttempt: due,
    created: now,
    completed: null,
  };
}

/** What a full run left for later: see queueDue. */
interface DueLeftOver {
  /** Shops left out of a batch because deliveries of theirs were waiting for their lanes: more may be due. */
  shops: Set<number>;
  /** The lanes had no room for more: anything may be left. */
  lanesFull: boolean;
}

/**
 * Full path: queues the due deliveries, a batch at a time; `touch` keeps the scheduler's lock. A shop with
 * deliveries waiting for its lanes is left out of the next batch, which so goes to the other shops; the rest of
 * its work is for a run once its lanes are empty (jobs.ts asks for one then, from what this returns).
 */
export async function queueDue(
  deps: SenderDeps,
  touch: () => Promise<void> = async () => undefined,
): Promise<DueLeftOver> {
  const leftOver: DueLeftOver = { shops: new Set(), lanesFull: false };
  for (;;) {
    const busy = deps.lanes.waitingShops();
    for (const shopId of busy) leftOver.shops.add(shopId);
    const due = await deps.deliveries.due(deps.now(), SEND_BATCH, busy);
    const added = await queueSends(deps, due);
    await touch();
    leftOver.lanesFull = deps.lanes.waitingCount >= MAX_WAITING;
    // All that is due is queued, or the lanes are full (or what was found is being sent already).
    if (due.length < SEND_BATCH || added === 0) return leftOver;
  }
}

/**
 * Queues deliveries in the lanes, each claimed when its turn comes unless `leased` to this sender already; returns
 * how many were new to the lanes. `subscriptions` saves reading them again when the caller has them.
 */
export async function queueSends(
  deps: SenderDeps,
  deliveries: WebhookDelivery[],
  { leased = false, subscriptions: known }: { leased?: boolean; subscriptions?: WebhookSubscription[] } = {},
): Promise<number> {
  const fresh = deliveries.filter((d) => !deps.lanes.has(d._id));
  if (fresh.length === 0) return 0;
  const ids = [...new Set(fresh.map((d) => d.subscriptionId))];
  const subscriptions = new Map((known ?? (await deps.webhooks.byIds(ids))).map((s) => [s.id, s]));
  let added = 0;
  for (const delivery of fresh) {
    if (deps.lanes.waitingCount >= MAX_WAITING) break;
    if (deps.lanes.waitingCount >= MAX_WAITING - RESERVED_WAITING && deps.lanes.waitingFor(delivery.shopId) > 0)
      continue;
    const run = () => attemptInLane(deps, delivery, subscriptions.get(delivery.subscriptionId), leased);
    if (deps.lanes.add(delivery.shopId, delivery._id, run)) added++;
  }
  return added;
}

/** An attempt as a lane runs it: nothing thrown, retries reported. */
async function attemptInLane(
  deps: DeliveryDeps,
  delivery: WebhookDelivery,
  subscription: WebhookSubscription | undefined,
  leased: boolean,
) {
  try {
    const result = await attempt(deps, delivery, subscription, leased);
    if (result.kind === 'sent' && result.outcome.kind === 'retry') deps.onRetry?.(result.outcome.at);
  } catch (err) {
    // Nothing recorded: the delivery falls due again as stored (at the latest when this sender's lease ends).
    deps.log.error({ err, delivery: delivery._id }, 'webhook attempt failed');
  }
}

type AttemptResult = { kind: 'sent'; outcome: AttemptOutcome } | { kind: 'cancelled' } | { kind: 'claimed elsewhere' };

/** One attempt at one delivery, unless another sender claimed it or the subscription no longer wants it. */
async function attempt(
  deps: DeliveryDeps,
  delivery: WebhookDelivery,
  subscription: WebhookSubscription | undefined,
  leased: boolean,
): Promise<AttemptResult> {
  const now = deps.now();
  if (!subscription?.is_active) {
    await deps.deliveries.cancel(delivery, now);
    return { kind: 'cancelled' };
  }
  // The lease taken when the delivery was made covers a request that starts at once. One that waited for a lane is
  // claimed like any due delivery: by now its lease may have run out and another sender found it due.
  const lease = leaseMs(deps);
  const trusted = leased && delivery.nextAttempt.getTime() - now.getTime() >= lease - FRESH_LEASE_MS;
  if (!trusted && !(await deps.deliveries.claim(delivery, new Date(now.getTime() + lease), now))) {
    return { kind: 'claimed elsewhere' };
  }
  // This copy may have been read minutes ago (a long wait for a lane): since then a customer's erasure may have
  // rewritten the body. A look-up by _id, so cheap; a trusted lease was taken on a delivery made moments ago.
  const body = trusted ? delivery.body : await deps.deliveries.currentBody(delivery._id);
  if (body === undefined) return { kind: 'cancelled' };
  const result = await (deps.send ?? postWebhook)({
    url: subscription.url,
    body,
    headers: {
      'Content-Type': 'application/json',
      'User-Agent': `${deps.config.brandName}-Webhooks/1.0`,
      'X-Topic': delivery.topic,
      'X-Event-Id': delivery.eventId,
      'X-Hash': signature(body, subscription.secret),
    },
    allowedHosts: deps.config.webhooks.allowedHosts,
    timeoutMs: deps.config.webhooks.timeoutMs,
  });
  const outcome = outcomeOf(delivery, result.status, deps.config.webhooks.retryScheduleSeconds, deps.now());
  const record = { delivery, attempt: { time: now, ...result }, outcome };
  await (deps.recorder ? deps.recorder.add(record) : deps.deliveries.recordAttempts([record]));
  if (outcome.kind === 'delivered' && subscription.consecutiveFailures !== 0)
    await deps.webhooks.recordSuccess(subscription.id);
  if (outcome.kind === 'failed' && delivery.retries) {
    const last = result.status !== null ? `HTTP ${result.status}` : (result.error ?? 'error');
    if (await deps.webhooks.recordFailure(subscription.id, deps.config.webhooks.disableAfter, last)) {
      deps.log.warn(
        { webhook: subscription.id, shopId: subscription.shopId },
        'webhook switched off after repeated failures',
      );
    }
  }
  return { kind: 'sent', outcome };
}

/** What follows an attempt with this HTTP status (null: no response). */
export function outcomeOf(
  delivery: Pick<WebhookDelivery, 'failures' | 'retries'>,
  status: number | null,
  scheduleSeconds: readonly number[],
  now: Date,
): AttemptOutcome {
  if (isDelivered(status)) return { kind: 'delivered' };
  const delay = delivery.retries ? retryDelayMs(scheduleSeconds, delivery.failures + 1) : undefined;
  return delay === undefined ? { kind: 'failed' } : { kind: 'retry', at: new Date(now.getTime() + delay) };
}
