// The policy page's numbers, as pure functions of what the stores return: which collection methods this shop
// actually uses, how many published reviews have each origin, how many were incentivised, and removals per ground.
import { ORIGINS, originFields, type ReviewOrigin } from '../reviews/origin.js';
import type { Review, ReviewSource } from '../reviews/model.js';
import type { Ground } from './strings.js';

const GROUND_ORDER: readonly Ground[] = [
  'not_experience',
  'offensive',
  'personal_data',
  'spam',
  'conflict_of_interest',
  'other',
];
/** The order the page lists collection methods in. */
const METHOD_ORDER: readonly ReviewSource[] = ['invitation', 'popup', 'form', 'import'];

export interface PolicyNumbers {
  /** Collection methods with at least one published review, in page order. */
  methods: ReviewSource[];
  byOrigin: Record<ReviewOrigin, number>;
  incentivised: number;
  total: number;
}

type PublishedFacts = Pick<Review, 'source' | 'verified'> & Partial<Pick<Review, 'origin' | 'incentivised'>>;

export function policyNumbers(published: Iterable<PublishedFacts>): PolicyNumbers {
  const byOrigin = Object.fromEntries(ORIGINS.map((o) => [o, 0])) as Record<ReviewOrigin, number>;
  const used = new Set<ReviewSource>();
  let incentivised = 0;
  let total = 0;
  for (const review of published) {
    const fields = originFields(review);
    byOrigin[fields.origin]++;
    if (fields.incentivised) incentivised++;
    used.add(review.source);
    total++;
  }
  return { methods: METHOD_ORDER.filter((m) => used.has(m)), byOrigin, incentivised, total };
}

/** Removals per ground, every ground listed (0 when none), from whatever the moderation store counted. */
export function removalRows(counted: Partial<Record<string, number>>): { ground: Ground; count: number }[] {
  return GROUND_ORDER.map((ground) => ({ ground, count: Math.max(0, Math.trunc(counted[ground] ?? 0)) }));
}

/** The start of the 12 months the page reports removals for. */
export function twelveMonthsBefore(now: Date): Date {
  const since = new Date(now);
  since.setUTCFullYear(since.getUTCFullYear() - 1);
  return since;
}
