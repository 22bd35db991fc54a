// A limit shared by every process: at most `max` uses of a key per time window. Each use takes a place, one document
// `<window>:<key>:<n>` inserted under a unique `_id`, so of concurrent requests for the last place exactly one gets it
// (FerretDB's updates are not atomic: an `$inc` there can lose a count, and a count read before the write could let
// two through). Window names sort in time, so the places of earlier windows go with one range delete on `_id`.
// Keys should be digests: the collection then holds no address an erasure would have to find.
import type { Collection, Db } from './index.js';
import { isDuplicateKey } from './index.js';

interface Place {
  _id: string;
  created: Date;
}

export interface Windows {
  /** The name of the window `at` falls in; later windows have names that sort after it. */
  nameOf(at: Date): string;
  /** Seconds from `at` until its window ends (at least 1: Retry-After). */
  secondsLeft(at: Date): number;
}

/** Fixed windows of `ms` from the epoch, named by their start (ISO 8601, which sorts in time). */
export function fixedWindows(ms: number): Windows {
  const start = (at: Date) => Math.floor(at.getTime() / ms) * ms;
  return {
    nameOf: (at) => new Date(start(at)).toISOString(),
    secondsLeft: (at) => Math.max(1, Math.ceil((start(at) + ms - at.getTime()) / 1000)),
  };
}

/** A place's `_id`: the window first, so a window's places sort after every earlier window's. */
export function placeId(window: string, key: string, place: number): string {
  return `${window}:${key}:${place}`;
}

export class WindowPlaces {
  private readonly collection: Collection<Place>;

  constructor(
    db: Db,
    collectionName: string,
    private readonly max: number,
    private readonly windows: Windows,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.collection = db.collection<Place>(collectionName);
  }

  /** Takes one of the key's places in the current window; the seconds until it ends when all are taken, else 0. */
  async take(key: string): Promise<number> {
    const now = this.now();
    const window = this.windows.nameOf(now);
    for (let place = 1; place <= this.max; place++) {
      try {
        await this.collection.insertOne({ _id: placeId(window, key, place), created: now });
        return 0;
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
      }
    }
    return this.windows.secondsLeft(now);
  }

  /** Removes the places of earlier windows: one range delete on `_id` (an index look-up on MongoDB). */
  async removeEarlierWindows(): Promise<number> {
    const result = await this.collection.deleteMany({ _id: { $lt: `${this.windows.nameOf(this.now())}:` } });
    return result.deletedCount;
  }
}
