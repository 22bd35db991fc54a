// Start-up step: the imports that a version before the work queue queued in `import_queue` (`_id` the import id, one
// entry per import: its work to run, undo or discard, and when it was queued) move to the import work queue
// (`import_work`: server/imports/store.ts), due when they were queued (a discard an hour after its upload began, as
// before), so the worker runs each once:
// - each is queued under its key before it leaves the old collection, so a second run (another process starting at
//   once, a restart after a crash) finds it queued already;
// - an entry an old worker is running during a rolling upgrade needs no care: both versions take the same shop lock
//   (`import_claims`, `shop:<id>`), so the new worker waits for the old one, then finds the import done (or undone)
//   and only takes the item off. A run that died half-way resumes by the reviews' identity, as after any crash.
// No marker: only older versions write `import_queue`, so after the first run every start reads an empty collection.
import type { Services } from '../services.js';

type ImportWork = Parameters<Services['imports']['queueWork']>[0];

/** An entry as the versions before the work queue stored it. */
interface LegacyQueuedImport {
  _id: string;
  shopId: number;
  work: ImportWork;
  at: Date;
}

export const LEGACY_IMPORT_QUEUE = 'import_queue';
const PAGE = 500;
const WORK: ReadonlySet<string> = new Set<ImportWork>(['run', 'undo', 'discard']);

/** Returns how many entries were moved to the work queue. */
export async function migrateImportQueue({ db, imports }: Pick<Services, 'db' | 'imports'>): Promise<number> {
  const legacy = db.collection<LegacyQueuedImport>(LEGACY_IMPORT_QUEUE);
  let moved = 0;
  for (;;) {
    const page = await legacy.find({}).limit(PAGE).toArray();
    if (page.length === 0) return moved;
    for (const e of page) {
      // An entry of no known work (none was ever written) would stay due forever: dropped with the rest.
      if (WORK.has(e.work) && (await imports.queueWork(e.work, e._id, e.shopId, e.at))) moved++;
    }
    await legacy.deleteMany({ _id: { $in: page.map((e) => e._id) } });
  }
}
