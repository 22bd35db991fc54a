// Steps of a per-shop change counter (bumpShopCounters) written at most once per `everyMs` by this process: a burst
// of changes moves the stored counter with a few writes instead of one per change. On FerretDB every write is a
// transaction of its own; one counter write per group of invitations cost a fifth of Add invitation's throughput
// (BENCHMARKS.md "Topologies", measured with and without). Steps not written yet are added to what `read` returns,
// so this process sees its own steps at once; other processes see them once written (a step lost with a crash is
// caught by the readers' periodic full read).
import type { Collection } from './index.js';
import { bumpShopCounters } from './index.js';

export class CountedSteps<T extends { _id: number }> {
  /** Steps counted and not yet handed to a write, and those of the write under way, by shop. */
  private readonly unwritten = new Map<number, number>();
  private readonly writing = new Map<number, number>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly counters: Collection<T>,
    private readonly field: string,
    private readonly everyMs: number,
  ) {}

  /** Counts one step of the shop's counter; it is written within `everyMs`. */
  step(shopId: number): void {
    this.unwritten.set(shopId, (this.unwritten.get(shopId) ?? 0) + 1);
    if (!this.timer) {
      this.timer = setTimeout(() => void this.write(), this.everyMs);
      this.timer.unref();
    }
  }

  /** The stored counter of the shop, with this process's steps not yet stored. */
  pendingOf(shopId: number): number {
    return (this.unwritten.get(shopId) ?? 0) + (this.writing.get(shopId) ?? 0);
  }

  /** Writes the steps counted so far (at shutdown, and in tests). */
  async flush(): Promise<void> {
    clearTimeout(this.timer);
    await this.write();
  }

  private async write(): Promise<void> {
    this.timer = undefined;
    const batch = [...this.unwritten];
    this.unwritten.clear();
    for (const [shopId, n] of batch) {
      this.writing.set(shopId, n);
      try {
        await bumpShopCounters(this.counters, shopId, { [this.field]: n });
      } catch {
        // Counted again with the next steps and written at the next turn (the database is back by then, or not:
        // the readers meanwhile see no change from here, and read everything again at their periodic full read).
        this.unwritten.set(shopId, (this.unwritten.get(shopId) ?? 0) + n);
      } finally {
        this.writing.delete(shopId);
      }
    }
    if (this.unwritten.size > 0 && !this.timer) {
      this.timer = setTimeout(() => void this.write(), this.everyMs);
      this.timer.unref();
    }
  }
}
