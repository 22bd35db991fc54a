// The figures the review policy page shows (routes.ts): what each comes from, read through the methods named here
// rather than other features' stores, so the route reaches none of them (docs/architecture.md).
import type { Cache } from '../cache.js';
import type { Counts } from '../compliance/counters.js';
import type { Review } from '../reviews/model.js';
import { formatDate } from '../time.js';
import { policyNumbers, type PolicyNumbers } from './numbers.js';

/** What the figures take: the reviews' public version and origins, moderation's removals, compliance's counters. */
export interface PolicyDeps {
  /** Built in app.ts, dropped there when the shop's public reviews change. */
  policyNumbers: Pick<Cache<{ version: number; numbers: PolicyNumbers }>, 'fetch'>;
  reviews: {
    versionsOf(shopId: number): Promise<{ public: number }>;
    publishedOrigins(shopId: number): Promise<Pick<Review, 'source' | 'verified' | 'origin' | 'incentivised'>[]>;
  };
  moderation: { removalsByGround(shopId: number, since: Date): Promise<Partial<Record<string, number>>> };
  compliance: { ofShop(shopId: number, from: string, to: string): Promise<Counts> };
}

/**
 * The numbers are recomputed past the cache TTL only when the shop's public reviews changed (one read by `_id` to
 * know).
 */
async function numbersOf(deps: PolicyDeps, shopId: number): Promise<PolicyNumbers> {
  const cached = await deps.policyNumbers.fetch(
    shopId,
    async (stale) => {
      const version = (await deps.reviews.versionsOf(shopId)).public;
      if (stale && stale.version === version) return stale;
      return { version, numbers: policyNumbers(await deps.reviews.publishedOrigins(shopId)) };
    },
    { bytes: () => 512 },
  );
  return cached.numbers;
}

/** The shop's figures for the page: how reviews are collected, removals per ground and the per-star counts since. */
export async function policyFigures(
  deps: PolicyDeps,
  shopId: number,
  since: Date,
  now: Date,
): Promise<{ numbers: PolicyNumbers; removals: Partial<Record<string, number>>; stars: Counts }> {
  const [numbers, removals, stars] = await Promise.all([
    numbersOf(deps, shopId),
    // Removals are the moderation decisions' (moderation/store.ts), counted per ground.
    deps.moderation.removalsByGround(shopId, since),
    // Per star: the compliance counters of the days since (one `_id` range, no history read).
    deps.compliance.ofShop(shopId, formatDate(since), formatDate(now)),
  ]);
  return { numbers, removals, stars };
}
