// Start-up step: the photo tasks that a version before the work queues kept in `photo_tasks` (`encode:<id>` and
// `delete:<id>`, claimed in `photo_claims`) move to the photo work queues (`photo_encodes`, `photo_deletions`:
// server/photos/store.ts), keyed by the photo id and due when they were queued, so the worker does each once:
// - each is queued under its key before it leaves the old collection, so a second run (another process starting at
//   once, a restart after a crash) finds it queued already;
// - a task an old worker holds during a rolling upgrade is queued due when its claim runs out, not before: the new
//   worker then finds it done (the photo shown, or its record gone) and only takes it off, where running it alongside
//   would find the upload already removed and take a shown photo off.
// No marker: only older versions write `photo_tasks`, so after the first run every start reads an empty collection.
import type { Services } from '../services.js';

type PhotoTaskKind = Parameters<Services['photos']['addTasks']>[0];

/** A task as the versions before the work queues stored it. */
interface LegacyPhotoTask {
  _id: string;
  kind: PhotoTaskKind;
  photoId: string;
  created: Date;
}

/** A claim of the old tasks (db/claims.ts): a take-over marker has `takeover`. */
interface LegacyClaim {
  _id: string;
  until: Date;
  takeover?: true;
}

export const LEGACY_PHOTO_TASKS = 'photo_tasks';
export const LEGACY_PHOTO_CLAIMS = 'photo_claims';
const PAGE = 500;
const KINDS: ReadonlySet<string> = new Set<PhotoTaskKind>(['encode', 'delete']);

/** Returns how many tasks were moved to the work queues. */
export async function migratePhotoQueues({
  db,
  photos,
  now,
}: Pick<Services, 'db' | 'now' | 'photos'>): Promise<number> {
  const legacy = db.collection<LegacyPhotoTask>(LEGACY_PHOTO_TASKS);
  const claims = db.collection<LegacyClaim>(LEGACY_PHOTO_CLAIMS);
  let moved = 0;
  for (;;) {
    const page = await legacy.find({}).limit(PAGE).toArray();
    if (page.length === 0) return moved;
    const held = await claims.find({ _id: { $in: page.map((t) => t._id) } }).toArray();
    const start = now();
    const heldUntil = new Map(held.filter((c) => !c.takeover && c.until > start).map((c) => [c._id, c.until]));
    for (const t of page) {
      // A task of no known kind (none was ever written) would stay due forever: dropped with the rest.
      if (!KINDS.has(t.kind) || typeof t.photoId !== 'string') continue;
      const due = heldUntil.get(t._id) ?? t.created;
      moved += await photos.addTasks(t.kind, [t.photoId], due);
    }
    await legacy.deleteMany({ _id: { $in: page.map((t) => t._id) } });
  }
}
