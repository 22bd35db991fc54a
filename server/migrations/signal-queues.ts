// Start-up step: the reviews and network notes that a version before the work queues queued for the signals in
// `signal_queue` and `signal_network_queue` (`_id` the review id, no claims) move to their work queues
// (`signal_reviews`, `signal_network_notes`: server/signals/store.ts), keyed by the review id and due when they were
// written, so the worker checks each once. Each is queued before it leaves the old collection, so a second run
// (another process starting at once, a restart after a crash) finds it queued already; a signal is raised once
// whatever the repeats (`signal_claims`).
// No marker: only older versions write the old collections, so after the first run every start reads empty ones.
import type { Collection } from '../db/index.js';
import type { Services } from '../services.js';

type Signals = Services['signals'];

/** Entries as the versions before the work queues stored them. */
interface LegacyReview {
  _id: number;
  shopId: number;
  imported: boolean;
  at: Date;
}
type LegacyNetwork = Omit<Parameters<Signals['adoptNetwork']>[0], 'reviewId'> & { _id: number };

export const LEGACY_SIGNAL_QUEUES = { reviews: 'signal_queue', networks: 'signal_network_queue' } as const;
const PAGE = 500;

/** Returns how many entries were moved to the work queues. */
export async function migrateSignalQueues({ db, signals }: Pick<Services, 'db' | 'signals'>): Promise<number> {
  const reviews = await move(db.collection<LegacyReview>(LEGACY_SIGNAL_QUEUES.reviews), ({ _id, ...e }) =>
    signals.adoptReview({ reviewId: _id, shopId: e.shopId, imported: e.imported === true, at: e.at }),
  );
  const networks = await move(db.collection<LegacyNetwork>(LEGACY_SIGNAL_QUEUES.networks), ({ _id, ...e }) =>
    signals.adoptNetwork({ reviewId: _id, shopId: e.shopId, key: e.key, family: e.family, at: e.at }),
  );
  return reviews + networks;
}

async function move<L extends { _id: number }>(
  legacy: Collection<L>,
  adopt: (entry: L) => Promise<boolean>,
): Promise<number> {
  let moved = 0;
  for (;;) {
    const page = (await legacy.find({}).limit(PAGE).toArray()) as L[];
    if (page.length === 0) return moved;
    moved += (await Promise.all(page.map(adopt))).filter(Boolean).length;
    await legacy.deleteMany({ _id: { $in: page.map((e) => e._id) } } as never);
  }
}
