// The worker's side of the signals: reviews are checked after they are written, never in the request, and a signal
// only adds an entry to the operator's moderation queue (`source: "signal"`). The queues (work queues, store.ts) hold
// only what is not checked yet, so each run reads what is new; a run takes its batch under a claim, so two workers
// split it.
import { randomUUID } from 'node:crypto';
import type { Services } from '../services.js';
import { mailSweepMs } from '../mail/retry.js';
import type { Review } from '../reviews/model.js';
import { raiseSignal } from '../moderation/service.js';
import { burstLimit, dayKey, isShopAddress, shopDomain, type SignalName } from './rules.js';
import { addDays } from '../time.js';
import { DuplicateIndex, type Match } from './duplicate-check.js';
import { TextBlockStore } from './text-store.js';
import { SHARED_NETWORK_DAYS, SHARED_NETWORK_REVIEWS, sameNetwork } from './network.js';
import type { PendingNetwork } from './store.js';
import type { ModerationDeps } from '../moderation/service.js';

/** What a signal check uses of the services: the counters it reads, the moderation queue it reports to. */
type SignalCheckDeps = ModerationDeps & Pick<Services, 'signals'>;

const BATCH = 200;
const SIGNAL_JOB = 'signals.check';
/** A check that failed this often is given up (logged each time): the signals are advice, not records. */
const CHECK_ATTEMPTS = 10;

export function defineSignalJobs(
  services: ModerationDeps & Pick<Services, 'config' | 'db' | 'log' | 'signals' | 'users' | 'webshops'>,
): void {
  // This process's memory of the last 365 days' texts, read from the blocks at its first check.
  const texts = new DuplicateIndex(
    new TextBlockStore(services.db),
    async (id) => (await services.reviews.get(id))?.comment ?? undefined,
  );
  services.scheduler.define(
    SIGNAL_JOB,
    async () => {
      // One holder per run; what it did not get to (a run that fails) is let go, still due.
      const holder = randomUUID();
      try {
        await checkPending(services, texts, holder);
        await checkNetworks(services, holder);
      } finally {
        await services.signals.release(holder);
      }
      // Claims of runs that died (a lease is minutes): the claim collections stay as small as the work in progress.
      await services.signals.prune(addDays(services.now(), -1));
    },
    mailSweepMs(services.config),
  );
}

const byReview = <T extends { payload: { reviewId: number } }>(items: T[]): T[] =>
  items.sort((a, b) => a.payload.reviewId - b.payload.reviewId);

/** After a failed check, the next try: a minute later per attempt so far; after the last, given up (undefined). */
function checkRetryAt(attempts: number, now: Date): Date | undefined {
  return attempts + 1 >= CHECK_ATTEMPTS ? undefined : new Date(now.getTime() + (attempts + 1) * 60_000);
}

/**
 * Runs `check` on each item, finishing it when done; one that throws is tried again later (checkRetryAt), so that it
 * holds up neither the rest of the batch nor the next runs.
 */
async function checkEach<T extends { _id: string; attempts: number }>(
  services: Pick<Services, 'log' | 'now' | 'signals'>,
  queue: 'reviews' | 'networks',
  holder: string,
  items: T[],
  check: (item: T) => Promise<void>,
  done: (key: string) => Promise<void>,
): Promise<void> {
  for (const item of items) {
    try {
      await check(item);
    } catch (err) {
      const at = checkRetryAt(item.attempts, services.now());
      services.log.error({ err, queue, key: item._id, givenUp: !at }, 'signal check failed');
      await services.signals.checkFailed(queue, holder, item._id, String(err), at);
      continue;
    }
    await done(item._id);
  }
}

async function checkPending(
  services: ModerationDeps & Pick<Services, 'config' | 'log' | 'signals' | 'users' | 'webshops'>,
  texts: DuplicateIndex,
  holder: string,
): Promise<void> {
  const { signals } = services;
  const on = new Set<SignalName>(services.config.signals);
  // In the order the reviews were written (their ids), as `burst` counts them.
  const batch = byReview(await signals.takeReviews(holder, BATCH));
  await checkEach(
    services,
    'reviews',
    holder,
    batch,
    async ({ payload: pending }) => {
      const review = await services.reviews.get(pending.reviewId);
      if (!review) return;
      if (on.has('burst')) await checkBurst(services, review, pending.at);
      // Imported reviews raise nothing but a burst.
      if (!pending.imported && on.has('insider')) await checkInsider(services, review);
      if (!pending.imported && on.has('duplicate_text')) await checkDuplicate(services, texts, review);
    },
    (key) => signals.reviewChecked(holder, key),
  );
}

async function checkBurst(services: SignalCheckDeps, review: Review, at: Date): Promise<void> {
  const { last24h, previousDays } = await services.signals.count(review.shopId, at);
  const limit = burstLimit(previousDays);
  if (last24h <= limit) return;
  // One per shop and day, however many reviews keep the burst going (so one import raises at most one).
  if (!(await services.signals.claim(`burst:${review.shopId}:${dayKey(at)}`))) return;
  const average = previousDays.reduce((a, b) => a + b, 0) / previousDays.length;
  await raiseSignal(services, review, 'burst', {
    review_ids: [review.id],
    figures: {
      reviews_24h: last24h,
      limit: Math.round(limit * 10) / 10,
      daily_average_90d: Math.round(average * 10) / 10,
    },
  });
}

async function checkInsider(
  services: ModerationDeps & Pick<Services, 'signals' | 'users' | 'webshops'>,
  review: Review,
): Promise<void> {
  if (!review.email) return;
  const user = await services.users.findByEmail(review.email);
  const shop = await services.webshops.get(review.shopId);
  const basis = user?.roles[String(review.shopId)]
    ? 'dashboard_user'
    : shop && isShopAddress(review.email, shopDomain(shop.url))
      ? 'shop_domain'
      : null;
  if (!basis || !(await services.signals.claim(`insider:${review.id}`))) return;
  await raiseSignal(services, review, 'insider', { review_ids: [review.id], figures: {}, basis });
}

async function checkDuplicate(services: SignalCheckDeps, texts: DuplicateIndex, review: Review): Promise<void> {
  const matches = await texts.check(review.id, review.comment, services.now());
  // The signal is on the newer review of a pair. A later review may be found here when another worker checked it
  // at the same moment and, having read the blocks just before this review was added, did not see this one.
  const older = matches.filter((m) => m.id < review.id);
  if (older.length) await raiseDuplicate(services, review, older);
  for (const newer of matches.filter((m) => m.id > review.id)) {
    const other = await services.reviews.get(newer.id);
    if (other) await raiseDuplicate(services, other, [{ id: review.id, similarity: newer.similarity }]);
  }
}

async function raiseDuplicate(services: SignalCheckDeps, review: Review, matches: Match[]): Promise<void> {
  if (!(await services.signals.claim(`duplicate_text:${review.id}`))) return;
  const best = Math.max(...matches.map((m) => m.similarity));
  await raiseSignal(services, review, 'duplicate_text', {
    review_ids: [review.id, ...matches.map((m) => m.id).sort((a, b) => a - b)],
    figures: { similarity: Math.floor(best * 100) / 100, matches: matches.length },
  });
}

/** Days before today whose network buckets a run drops, by `_id`: the one that just left, and a week of catch-up. */
const NETWORK_CATCH_UP_DAYS = 7;

async function checkNetworks(
  services: ModerationDeps & Pick<Services, 'config' | 'log' | 'signals'>,
  holder: string,
): Promise<void> {
  const { signals } = services;
  const on = services.config.signals.includes('shared_network');
  await checkEach(
    services,
    'networks',
    holder,
    byReview(await signals.takeNetworks(holder, BATCH)),
    async ({ payload }) => {
      if (on) await checkNetwork(services, payload);
    },
    (key) => signals.networkChecked(holder, key),
  );
  const now = services.now();
  for (let back = SHARED_NETWORK_DAYS; back < SHARED_NETWORK_DAYS + NETWORK_CATCH_UP_DAYS; back++) {
    await signals.dropNetworkDay(dayKey(addDays(now, -back)));
  }
}

async function checkNetwork(services: SignalCheckDeps, pending: PendingNetwork): Promise<void> {
  const { signals } = services;
  await signals.keepNetwork(pending.shopId, dayKey(pending.at), pending.reviewId, pending);
  const days = Array.from({ length: SHARED_NETWORK_DAYS }, (_, i) => dayKey(addDays(pending.at, -i)));
  const group = sameNetwork(await signals.networksOf(pending.shopId, days), pending);
  if (group.length < SHARED_NETWORK_REVIEWS) return;
  // Once per group: named by its oldest review in the window (a group that goes on past it is raised again).
  if (!(await signals.claim(`shared_network:${group[0]}`))) return;
  const review = await services.reviews.get(pending.reviewId);
  if (!review) return;
  await raiseSignal(services, review, 'shared_network', {
    review_ids: group,
    figures: { reviews: group.length, days: SHARED_NETWORK_DAYS },
  });
}
