// `duplicate_text` in the worker. Each worker process holds the LSH bands of every review checked in the last 365
// days in memory (band-table.ts); the database holds them in blocks read by `_id`, never searched:
// - `signal_text_recent`: the days not yet closed (today, yesterday) in chunks of at most CHUNK entries
//   (`_id` = `YYYY-MM-DD/<n>`), appended to with $push as reviews are checked. Before each look-up a worker adds its
//   review, then reads the chunks it has not read in full again, so a review checked by another worker is seen;
// - `signal_text_days`: one block per closed UTC day (`_id` = `YYYY-MM-DD`), written once when the day is two days
//   old, read at a worker's first check and deleted by `_id` when it is 365 days old.
// A check touches only the small recent collection and a few chunks: its cost does not grow with the reviews stored,
// nor with a busy day (FerretDB scans the collection even for an `_id`, so the split matters there).
// Candidates are confirmed with the exact Jaccard on their current text, read by `_id` (docs/decisions/signals.md).
import { addDays } from '../time.js';
import { BandTable } from './band-table.js';
import { bandsOf, SIMILARITY, similarity } from './duplicate.js';
import { CHUNK, eachOfBlock, type Entry, packBands, type TextBlockStore, unpackBands } from './text-store.js';
import { dayKey } from './rules.js';

/** Days a review's text is compared against. */
const DUPLICATE_WINDOW_DAYS = 365;
/** Days before the window whose blocks a starting worker deletes, in case no worker ran when they left it. */
const CATCH_UP_DAYS = 60;
/** Candidates read for the exact check, those sharing the most bands first: a bound on one check's reads. */
const MAX_CANDIDATES = 10;

/** What a confirmed match says: the other review and the exact similarity. */
export interface Match {
  id: number;
  similarity: number;
}

/** What this process has read of a recent day: the entries of each chunk, the last chunk. */
interface RecentDay {
  counts: number[];
  last: number;
}

export class DuplicateIndex {
  private readonly table = new BandTable(1 << 16);
  /** Closed days whose blocks are in the table. */
  private readonly closed = new Set<string>();
  private readonly open = new Map<string, RecentDay>();
  private started = false;

  constructor(
    private readonly blocks: TextBlockStore,
    /** Reads a review's current comment by `_id`; undefined when the review is gone (erased). */
    private readonly commentOf: (id: number) => Promise<string | null | undefined>,
  ) {}

  /** Pairs in memory and the bytes they take. */
  get memory(): { pairs: number; bytes: number } {
    return { pairs: this.table.size, bytes: this.table.bytes };
  }

  /**
   * At the first check of the process: the closed days of the window in one query by `_id`, then the recent chunks
   * (a small collection, read whole). Blocks that left the window while no worker ran are deleted by `_id`.
   */
  async start(now: Date): Promise<void> {
    if (this.started) return;
    for (let back = DUPLICATE_WINDOW_DAYS; back < DUPLICATE_WINDOW_DAYS + CATCH_UP_DAYS; back++) {
      await this.blocks.deleteClosedDay(dayKey(addDays(now, -back)));
    }
    const window = Array.from({ length: DUPLICATE_WINDOW_DAYS }, (_, back) => dayKey(addDays(now, -back)));
    // Everything is read before anything enters memory, so that a failed read leaves nothing to add twice on retry.
    const blocks = await this.blocks.closedDays(window);
    const chunks = await this.blocks.allRecent();
    for (const block of blocks) {
      eachOfBlock(block, (id, keys) => {
        for (const key of keys) this.table.add(key, id);
      });
      this.closed.add(block._id);
    }
    const stale: string[] = [];
    for (const chunk of chunks) {
      // A chunk of a closed day: its worker stopped before it deleted the chunks.
      if (this.closed.has(chunk.day)) {
        stale.push(chunk._id);
        continue;
      }
      const n = Number(chunk._id.slice(chunk._id.indexOf('/') + 1));
      this.index(chunk.entries);
      const day = this.open.get(chunk.day) ?? { counts: [], last: 0 };
      day.counts[n] = chunk.entries.length;
      day.last = Math.max(day.last, n);
      this.open.set(chunk.day, day);
    }
    this.started = true;
    for (const id of stale) await this.blocks.deleteChunk(id);
  }

  /**
   * Checks a new review's comment against every review checked in the window (and adds it): the matches at or above
   * SIMILARITY, or [] (also for a comment too short to compare).
   */
  async check(id: number, comment: string | null, now: Date): Promise<Match[]> {
    await this.start(now);
    const today = dayKey(now);
    const yesterday = dayKey(addDays(now, -1));
    for (const day of [...this.open.keys()].filter((d) => d < yesterday)) await this.close(day);
    await this.expire(now);
    const keys = bandsOf(comment);
    if (!keys) return [];
    await this.append(today, { id, bands: packBands(keys) });
    // What other workers added meanwhile (a worker checking just after midnight may still write yesterday's).
    await this.refresh(yesterday);
    await this.refresh(today);
    const matches: Match[] = [];
    for (const candidate of this.candidates(keys, id)) {
      const text = await this.commentOf(candidate);
      if (text === undefined) continue;
      const figure = similarity(comment, text);
      if (figure >= SIMILARITY) matches.push({ id: candidate, similarity: figure });
    }
    return matches;
  }

  /** The ids sharing at least one band with `keys`, those sharing the most first, at most MAX_CANDIDATES. */
  private candidates(keys: Uint32Array, self: number): number[] {
    const shared = new Map<number, number>();
    for (const key of keys) {
      const seen = new Set<number>();
      this.table.each(key, (other) => {
        if (other === self || seen.has(other)) return;
        seen.add(other);
        shared.set(other, (shared.get(other) ?? 0) + 1);
      });
    }
    return [...shared]
      .sort((a, b) => b[1] - a[1] || b[0] - a[0])
      .slice(0, MAX_CANDIDATES)
      .map(([other]) => other);
  }

  private index(entries: readonly Entry[]): void {
    for (const entry of entries) for (const key of unpackBands(entry.bands)) this.table.add(key, entry.id);
  }

  /** Adds the entry to the day's last chunk, or starts the next one when that is full (as far as this process knows). */
  private async append(day: string, entry: Entry): Promise<void> {
    const known = this.open.get(day) ?? { counts: [], last: 0 };
    this.open.set(day, known);
    const n = (known.counts[known.last] ?? 0) >= CHUNK ? known.last + 1 : known.last;
    await this.blocks.append(day, n, entry);
  }

  /**
   * Reads the day's chunks from the one before the last this process knows (another worker with an older view may
   * still have added to it) up to the first missing one, and adds their new entries; answers every entry read.
   */
  private async refresh(day: string, from?: number): Promise<Entry[]> {
    const known = this.open.get(day) ?? { counts: [], last: 0 };
    const read: Entry[] = [];
    for (let n = from ?? Math.max(0, known.last - 1); ; n++) {
      const chunk = await this.blocks.chunk(day, n);
      if (!chunk) break;
      this.index(chunk.entries.slice(known.counts[n] ?? 0));
      known.counts[n] = chunk.entries.length;
      known.last = Math.max(known.last, n);
      read.push(...chunk.entries);
    }
    if (read.length || this.open.has(day)) this.open.set(day, known);
    return read;
  }

  /** A day two days old becomes one block (written once, whoever is first), and its chunks are deleted by `_id`. */
  private async close(day: string): Promise<void> {
    const entries = await this.refresh(day, 0);
    await this.blocks.close(day, entries);
    for (let n = 0; n <= (this.open.get(day)?.last ?? -1); n++) await this.blocks.deleteChunk(`${day}/${n}`);
    this.open.delete(day);
    this.closed.add(day);
  }

  /** Days that left the window leave memory, and their blocks the database (by `_id`: no scan). */
  private async expire(now: Date): Promise<void> {
    const oldest = dayKey(addDays(now, -(DUPLICATE_WINDOW_DAYS - 1)));
    for (const day of [...this.closed].filter((d) => d < oldest)) {
      const block = await this.blocks.closedDay(day);
      if (block) {
        eachOfBlock(block, (id, keys) => {
          for (const key of keys) this.table.remove(key, id);
        });
      }
      await this.blocks.deleteClosedDay(day);
      this.closed.delete(day);
    }
  }
}
