// Counts what review writes do for the compliance report: a review received (its first write) and a review first
// published (with the time it took). It follows every write of ReviewStore's single write path, so no path is missed.
import type { Review, WriteFollower } from '../reviews/model.js';
import { originOf } from '../reviews/origin.js';
import type { ComplianceEvent } from './counters.js';
import type { ComplianceStore } from './store.js';

/** The counted events of one write, given the review before (undefined for a new one) and after. Pure. */
export function writeEvents(before: Review | undefined, after: Review, now: Date): ComplianceEvent[] {
  const events: ComplianceEvent[] = [];
  if (!before) events.push({ kind: 'review_received', origin: after.origin ?? originOf(after), rating: after.rating });
  const firstPublished = after.published && !(before?.announced ?? false);
  if (firstPublished) {
    // An import carries its date on the other platform: no delay of ours to measure.
    const delayMs = after.source === 'import' ? null : before ? now.getTime() - after.created.getTime() : 0;
    events.push({ kind: 'review_published', rating: after.rating, delayMs });
  }
  return events;
}

/** Counts one write (also for bulk imports, which run no followers). */
export function countWrite(counters: ComplianceStore, before: Review | undefined, after: Review, now: Date): void {
  for (const event of writeEvents(before, after, now)) counters.count(after.shopId, event);
}

export class ComplianceFollower implements WriteFollower {
  constructor(
    private readonly counters: ComplianceStore,
    private readonly now: () => Date,
  ) {}

  async follow(before: Review | undefined, after: Review): Promise<void> {
    countWrite(this.counters, before, after, this.now());
  }
}
