// Start-up step, once (marker `reviews.removal_ground`; docs/decisions.md, "Stored field names"): reviews removed by
// a version before the field's rename get `removalGround` for `removal_ground`. One scan for the few removed reviews,
// then updates by `_id` in batches (FerretDB 1.24 never answered an update command of 100 statements). No version and
// no event: no client reads the field. Idempotent: a renamed review no longer matches.
import type { ObjectId } from 'mongodb';
import { updateBatches } from '../db/index.js';
import { MigrationMarkers } from '../db/migrations.js';
import type { Services } from '../services.js';

const MARKER = 'reviews.removal_ground';

/** A review as the versions before the rename stored its ground. */
interface LegacyRemoval {
  _id: ObjectId | number;
  removal_ground?: string | null;
}

/** Returns how many reviews were renamed (0 once the marker is set). */
export async function migrateRemovalGround({ db, now }: Pick<Services, 'db' | 'now'>): Promise<number> {
  let renamed = 0;
  await new MigrationMarkers(db, now).runOnce(MARKER, async () => {
    const legacy = db.collection<LegacyRemoval>('reviews');
    const old = await legacy
      .find({ removal_ground: { $exists: true } }, { projection: { _id: 1, removal_ground: 1 } })
      .toArray();
    for (const batch of updateBatches(old)) {
      const result = await legacy.bulkWrite(
        batch.map((r) => ({
          updateOne: {
            filter: { _id: r._id },
            update: { $set: { removalGround: r.removal_ground ?? null }, $unset: { removal_ground: '' } },
          },
        })),
        { ordered: false },
      );
      renamed += result.modifiedCount;
    }
  });
  return renamed;
}
