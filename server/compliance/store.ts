// The compliance counters as stored (issue 21; docs/decisions/compliance.md): one small document per shop, day and
// writing process, `_id` = `<shop id>:<YYYY-MM-DD>:<process tag>`, holding that process's counts of the day.
//
// Why a document per process: FerretDB applies an update as a read followed by a write, so two processes `$inc`-ing
// one document at once can lose a count, and the report is a legal record. Here each document has one writer, this
// process, which keeps the day's totals in memory and writes them whole (`$set`), one write at a time per document:
// nothing to merge, nothing lost by concurrency. Increments are gathered for a moment (FLUSH_MS) so a busy shop costs
// one write a second, not one per event; `flush()` writes at once (tests, shutdown). A process that starts again
// takes a new tag, so it never overwrites what it wrote before. Reading a shop's days is one `_id` range (the tag
// sorts after the day), so a report reads the days asked for and nothing older.
import { randomBytes } from 'node:crypto';
import type { Collection, Db } from '../db/index.js';
import { addCounts, countsOf, type ComplianceEvent, type Counts } from './counters.js';
import { formatDate } from '../time.js';

/** How long increments are gathered before they are written. */
const FLUSH_MS = 1_000;

interface DayCounts {
  _id: string;
  shopId: number;
  /** YYYY-MM-DD (UTC). */
  day: string;
  c: Counts;
}

interface Held {
  /** The totals of this process for the shop-day, as last known (loaded from its document when first touched). */
  totals: Counts | null;
  /** Increments not yet written. */
  pending: Counts;
  /** The write in flight, if any: writes of one document follow each other. */
  writing: Promise<void> | null;
}

export class ComplianceStore {
  private readonly days: Collection<DayCounts>;
  /** This process's tag: its documents are its own. */
  private readonly tag = randomBytes(6).toString('base64url');
  private readonly held = new Map<string, Held>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    db: Db,
    private readonly now: () => Date = () => new Date(),
    private readonly onError: (err: unknown) => void = () => {},
  ) {
    this.days = db.collection<DayCounts>('compliance_days');
  }

  /** Counts what happened now for the shop. Never throws: a counter must not fail the request that caused it. */
  count(shopId: number, event: ComplianceEvent): void {
    const key = `${shopId}:${formatDate(this.now())}:${this.tag}`;
    let held = this.held.get(key);
    if (!held) {
      held = { totals: null, pending: {}, writing: null };
      this.held.set(key, held);
    }
    addCounts(held.pending, countsOf(event));
    this.timer ??= setTimeout(() => {
      this.timer = null;
      this.flush().catch(this.onError);
    }, FLUSH_MS);
    this.timer.unref?.();
  }

  /** Writes every pending increment now. */
  async flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    await Promise.all([...this.held.keys()].map((key) => this.write(key)));
    // Days before yesterday are finished for this process: their totals are on disk, read again if ever needed.
    const yesterday = formatDate(new Date(this.now().getTime() - 86_400_000));
    for (const [key, held] of this.held) {
      if (key.split(':')[1]! < yesterday && !held.writing && Object.keys(held.pending).length === 0)
        this.held.delete(key);
    }
  }

  private async write(key: string): Promise<void> {
    const held = this.held.get(key)!;
    while (held.writing) await held.writing;
    if (Object.keys(held.pending).length === 0) return;
    const run = (async () => {
      const [shopId, day] = key.split(':') as [string, string];
      // A document this process wrote before and dropped from memory: its totals are read back once.
      held.totals ??= (await this.days.findOne({ _id: key }))?.c ?? {};
      const pending = held.pending;
      held.pending = {};
      const next = addCounts({ ...held.totals }, pending);
      try {
        await this.days.updateOne({ _id: key }, { $set: { shopId: Number(shopId), day, c: next } }, { upsert: true });
        held.totals = next;
      } catch (err) {
        // Kept for the next flush.
        addCounts(held.pending, pending);
        throw err;
      }
    })();
    held.writing = run;
    try {
      await run;
    } finally {
      held.writing = null;
    }
  }

  /**
   * A shop's counters per day from `from` to `to` (YYYY-MM-DD, inclusive), every process's summed: one `_id` range,
   * the days asked for only.
   */
  async ofShop(shopId: number, from: string, to: string): Promise<Counts> {
    const docs = await this.days
      .find({ _id: { $gte: `${shopId}:${from}:`, $lt: `${shopId}:${to};` } }, { projection: { c: 1 } })
      .toArray();
    return docs.reduce((sum, d) => addCounts(sum, d.c), {} as Counts);
  }

  /** Every shop's counters over the days, by shop. */
  async ofAllShops(from: string, to: string): Promise<Map<number, Counts>> {
    const docs = await this.days.find({ day: { $gte: from, $lte: to } }, { projection: { shopId: 1, c: 1 } }).toArray();
    const byShop = new Map<number, Counts>();
    for (const d of docs) byShop.set(d.shopId, addCounts(byShop.get(d.shopId) ?? {}, d.c));
    return byShop;
  }
}
