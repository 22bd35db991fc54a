// `duplicate_text` in the worker. Each worker process holds the LSH bands of every review checked in the last 365
// days in memory (band-table.ts); the database holds them in blocks, one document per UTC day of checking
// (`signal_text_days`, `_id` = `YYYY-MM-DD`), read by `_id` at the first check, appended to as reviews are checked and
// deleted by `_id` when 365 days old. The blocks are the truth shared by worker processes: before each look-up a worker
// adds its review to today's block, then reads today's and yesterday's again, so a review checked by another worker
// is seen. Candidates are confirmed with the exact Jaccard on the candidates' current text, read by `_id`
// (docs/decisions/signals.md).
import { Binary } from 'mongodb';
import type { Collection, Db } from '../db/index.js';
import { addDays } from '../time.js';
import { BandTable } from './band-table.js';
import { BANDS, bandsOf, SIMILARITY, similarity } from './duplicate.js';
import { dayKey } from './rules.js';

/** Days a review's text is compared against. */
const DUPLICATE_WINDOW_DAYS = 365;
/** Days before the window whose blocks a starting worker deletes, in case no worker ran when they left it. */
const CATCH_UP_DAYS = 60;
/** Candidates read for the exact check, those sharing the most bands first: a bound on one check's reads. */
const MAX_CANDIDATES = 10;

interface Entry {
  id: number;
  /** The BANDS band keys, 4 bytes each, little-endian. */
  bands: Binary;
}

interface Block {
  _id: string;
  entries: Entry[];
}

const packBands = (keys: Uint32Array): Binary => {
  const bytes = Buffer.alloc(keys.length * 4);
  for (let i = 0; i < keys.length; i++) bytes.writeUInt32LE(keys[i]!, i * 4);
  return new Binary(bytes);
};

function unpackBands(bands: Binary): Uint32Array {
  const bytes = Buffer.from(bands.buffer);
  const keys = new Uint32Array(BANDS);
  for (let i = 0; i < BANDS && i * 4 + 4 <= bytes.length; i++) keys[i] = bytes.readUInt32LE(i * 4);
  return keys;
}

/** What a confirmed match says: the other review and the exact similarity. */
export interface Match {
  id: number;
  similarity: number;
}

export class DuplicateIndex {
  private readonly blocks: Collection<Block>;
  private readonly table = new BandTable(1 << 16);
  /** Day → how many of its block's entries are in the table (blocks only grow, by $push). */
  private readonly loaded = new Map<string, number>();
  private started = false;

  constructor(
    db: Db,
    /** Reads a review's current comment by `_id`; undefined when the review is gone (erased). */
    private readonly commentOf: (id: number) => Promise<string | null | undefined>,
  ) {
    this.blocks = db.collection<Block>('signal_text_days');
  }

  /** Pairs in memory and the bytes they take. */
  get memory(): { pairs: number; bytes: number } {
    return { pairs: this.table.size, bytes: this.table.bytes };
  }

  /** Reads the blocks of the window, one `_id` each: at the first check of the process. */
  async start(now: Date): Promise<void> {
    if (this.started) return;
    for (let back = DUPLICATE_WINDOW_DAYS; back < DUPLICATE_WINDOW_DAYS + CATCH_UP_DAYS; back++) {
      await this.blocks.deleteOne({ _id: dayKey(addDays(now, -back)) });
    }
    for (let back = DUPLICATE_WINDOW_DAYS - 1; back >= 0; back--) await this.refresh(dayKey(addDays(now, -back)));
    this.started = true;
  }

  /**
   * Checks a new review's comment against every review checked in the window (and adds it): the matches at or above
   * SIMILARITY, or [] (also for a comment too short to compare).
   */
  async check(id: number, comment: string | null, now: Date): Promise<Match[]> {
    await this.start(now);
    await this.expire(now);
    const keys = bandsOf(comment);
    if (!keys) return [];
    const today = dayKey(now);
    await this.blocks.updateOne(
      { _id: today },
      { $push: { entries: { id, bands: packBands(keys) } } },
      { upsert: true },
    );
    // What other workers added meanwhile (a worker checking just after midnight may still write yesterday's).
    await this.refresh(dayKey(addDays(now, -1)));
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

  /** Adds the entries of a day's block not yet in memory. */
  private async refresh(day: string): Promise<void> {
    const block = await this.blocks.findOne({ _id: day });
    if (!block) return;
    const known = this.loaded.get(day) ?? 0;
    for (const entry of block.entries.slice(known)) {
      for (const key of unpackBands(entry.bands)) this.table.add(key, entry.id);
    }
    this.loaded.set(day, block.entries.length);
  }

  /** Days that left the window leave memory, and their blocks the database (by `_id`: no scan). */
  private async expire(now: Date): Promise<void> {
    const oldest = dayKey(addDays(now, -(DUPLICATE_WINDOW_DAYS - 1)));
    for (const day of [...this.loaded.keys()].filter((d) => d < oldest)) {
      const block = await this.blocks.findOne({ _id: day });
      for (const entry of block?.entries ?? []) {
        for (const key of unpackBands(entry.bands)) this.table.remove(key, entry.id);
      }
      await this.blocks.deleteOne({ _id: day });
      this.loaded.delete(day);
    }
  }
}
