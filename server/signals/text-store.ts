// The `duplicate_text` blocks (duplicate-check.ts says how they are used), each read and written by `_id`:
// - `signal_text_recent`: the days not yet closed, in chunks (`_id` = `YYYY-MM-DD/<n>`) appended to with $push;
// - `signal_text_days`: one block per closed UTC day (`_id` = `YYYY-MM-DD`), ids and band keys packed in two binaries.
import { Binary } from 'mongodb';
import type { Collection, Db } from '../db/index.js';
import { BANDS } from './duplicate.js';

export interface Entry {
  id: number;
  /** The BANDS band keys, 4 bytes each, little-endian. */
  bands: Binary;
}

interface Chunk {
  _id: string;
  day: string;
  entries: Entry[];
}

/**
 * A closed day: its review ids (4 bytes each) and their band keys (BANDS × 4 bytes each), little-endian, packed in
 * two binaries: read and decoded many times faster than an array of small documents (bench/duplicate-text.ts).
 */
interface Block {
  _id: string;
  ids: Binary;
  bands: Binary;
}

/** Entries per chunk of a recent day: a check reads and rewrites at most a few of this size. */
export const CHUNK = 64;

export const packBands = (keys: Uint32Array): Binary => {
  const bytes = Buffer.alloc(keys.length * 4);
  for (let i = 0; i < keys.length; i++) bytes.writeUInt32LE(keys[i]!, i * 4);
  return new Binary(bytes);
};

export function unpackBands(bands: Binary): Uint32Array {
  const bytes = Buffer.from(bands.buffer);
  const keys = new Uint32Array(BANDS);
  for (let i = 0; i < BANDS && i * 4 + 4 <= bytes.length; i++) keys[i] = bytes.readUInt32LE(i * 4);
  return keys;
}

function packBlock(entries: readonly Entry[]): Pick<Block, 'ids' | 'bands'> {
  const ids = Buffer.alloc(entries.length * 4);
  const bands = Buffer.alloc(entries.length * BANDS * 4);
  entries.forEach((entry, i) => {
    ids.writeUInt32LE(entry.id, i * 4);
    Buffer.from(entry.bands.buffer).copy(bands, i * BANDS * 4, 0, BANDS * 4);
  });
  return { ids: new Binary(ids), bands: new Binary(bands) };
}

/** Calls `each` with every review id of a closed day's block and its band keys. */
export function eachOfBlock(block: Block, each: (id: number, keys: Uint32Array) => void): void {
  const ids = Buffer.from(block.ids.buffer);
  const bands = Buffer.from(block.bands.buffer);
  for (let i = 0; i * 4 + 4 <= ids.length; i++) {
    const keys = new Uint32Array(BANDS);
    for (let b = 0; b < BANDS; b++) keys[b] = bands.readUInt32LE((i * BANDS + b) * 4);
    each(ids.readUInt32LE(i * 4), keys);
  }
}

export class TextBlockStore {
  private readonly recent: Collection<Chunk>;
  private readonly days: Collection<Block>;

  constructor(db: Db) {
    this.recent = db.collection<Chunk>('signal_text_recent');
    this.days = db.collection<Block>('signal_text_days');
  }

  /** The closed days' blocks among `days`: one query by `_id`. */
  closedDays(days: readonly string[]): Promise<Block[]> {
    return this.days.find({ _id: { $in: [...days] } }).toArray();
  }

  closedDay(day: string): Promise<Block | null> {
    return this.days.findOne({ _id: day });
  }

  /** Writes a closed day's block once, whoever is first. */
  async close(day: string, entries: readonly Entry[]): Promise<void> {
    await this.days.updateOne({ _id: day }, { $setOnInsert: packBlock(entries) }, { upsert: true });
  }

  async deleteClosedDay(day: string): Promise<void> {
    await this.days.deleteOne({ _id: day });
  }

  /** Every chunk of the recent days: a small collection (two days of reviews), read whole at a worker's start. */
  allRecent(): Promise<Chunk[]> {
    return this.recent.find({}).toArray();
  }

  chunk(day: string, n: number): Promise<Chunk | null> {
    return this.recent.findOne({ _id: `${day}/${n}` });
  }

  async append(day: string, n: number, entry: Entry): Promise<void> {
    await this.recent.updateOne(
      { _id: `${day}/${n}` },
      { $setOnInsert: { day }, $push: { entries: entry } },
      { upsert: true },
    );
  }

  async deleteChunk(id: string): Promise<void> {
    await this.recent.deleteOne({ _id: id });
  }
}
