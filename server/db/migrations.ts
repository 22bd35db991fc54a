// Markers of the one-time start-up steps (data migrations, backfills). Every process runs them at start; a step that
// searches a collection (a scan on FerretDB) runs until its marker says it was done, so a later start only reads the
// marker, by `_id`. Steps are idempotent: two processes starting at once may both run one, the first marker stands.
import type { Collection, Db } from './index.js';
import { isDuplicateKey } from './index.js';

interface Marker {
  _id: string;
  done: Date;
}

export class MigrationMarkers {
  private readonly collection: Collection<Marker>;

  constructor(
    db: Db,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.collection = db.collection<Marker>('migrations');
  }

  async isDone(step: string): Promise<boolean> {
    return (await this.collection.findOne({ _id: step })) !== null;
  }

  async markDone(step: string): Promise<void> {
    try {
      await this.collection.insertOne({ _id: step, done: this.now() });
    } catch (err) {
      // Another process finished it at the same time.
      if (!isDuplicateKey(err)) throw err;
    }
  }

  /** Runs `step` unless its marker exists, then sets the marker; true when it ran. */
  async runOnce(step: string, run: () => Promise<void>): Promise<boolean> {
    if (await this.isDone(step)) return false;
    await run();
    await this.markDone(step);
    return true;
  }

  /** Forgets a step's marker, so that the next start runs it again (tests of a migration). */
  async forget(step: string): Promise<void> {
    await this.collection.deleteOne({ _id: step });
  }
}
