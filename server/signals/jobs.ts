// The worker's side of the signals: reviews are checked after they are written, never in the request, and a signal
// only adds an entry to the operator's moderation queue (`source: "signal"`). The queue holds only reviews not yet
// checked, so each run reads what is new.
import type { Services } from '../services.js';
import { mailSweepMs } from '../mail/retry.js';
import type { Review } from '../reviews/model.js';
import { raiseSignal } from '../moderation/service.js';
import { burstLimit, dayKey, isShopAddress, shopDomain, type SignalName } from './rules.js';

const BATCH = 200;
const SIGNAL_JOB = 'signals.check';

export function defineSignalJobs(services: Services): void {
  services.scheduler.define(SIGNAL_JOB, () => checkPending(services), mailSweepMs(services.config));
}

async function checkPending(services: Services): Promise<void> {
  const { signals } = services;
  const on = new Set<SignalName>(services.config.signals);
  for (const pending of await signals.pending(BATCH)) {
    const review = await services.reviews.get(pending._id);
    if (review) {
      if (on.has('burst')) await checkBurst(services, review, pending.at);
      // Imported reviews raise nothing but a burst.
      if (!pending.imported && on.has('insider')) await checkInsider(services, review);
    }
    await signals.done(pending._id);
  }
}

async function checkBurst(services: Services, review: Review, at: Date): Promise<void> {
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

async function checkInsider(services: Services, review: Review): Promise<void> {
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
