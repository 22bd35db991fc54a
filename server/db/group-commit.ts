// Group commit: items added while a write is running are written together by the next one. Under load many callers
// share one write (on FerretDB/SQLite each write is a transaction, and one insert with the invitations' indexes
// costs about as much as a batch: 1,200 single inserts per second against 8,700 documents per second in batches of
// 50, measured); alone, an item is written at once. Used for invitations and their queue entries, e-mail outcomes
// and webhook attempt records.

/** What a write reports for each item, in order: a result, or an Error that fails that item's caller only. */
// biome-ignore lint/suspicious/noConfusingVoidType: a write that reports nothing is an async function returning void, which `undefined` would refuse
export type Results<R> = (R | Error)[] | void;

export class GroupCommit<T, R = void> {
  private queue: { item: T; ok: (result: R) => void; fail: (err: unknown) => void }[] = [];
  private running = false;

  constructor(
    private readonly write: (items: T[]) => Promise<Results<R>>,
    private readonly maxBatch = 1000,
  ) {}

  /** Resolves with the item's result once the write that carried it has ended; rejects if that write failed. */
  add(item: T): Promise<R> {
    return new Promise((ok, fail) => {
      this.queue.push({ item, ok, fail });
      void this.run();
    });
  }

  private async run(): Promise<void> {
    if (this.running) return;
    this.running = true;
    while (this.queue.length > 0) {
      const group = this.queue.splice(0, this.maxBatch);
      try {
        const results = await this.write(group.map((g) => g.item));
        group.forEach((g, i) => {
          const result = results?.[i];
          if (result instanceof Error) g.fail(result);
          else g.ok(result as R);
        });
      } catch (err) {
        for (const g of group) g.fail(err);
      }
    }
    this.running = false;
  }
}
