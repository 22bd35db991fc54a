// Fair sending: webhook requests run at most `total` at a time in a process, at most `perShop` of them for one
// shop. A free lane goes to the waiting shop with the fewest requests running, shops taking turns among equals. A
// shop whose receivers hang for the whole timeout so holds up only its own lanes; every other shop's next request
// starts as soon as any lane is free.

interface LaneOptions {
  total: number;
  perShop: number;
  /** A shop's last task ended after some of its tasks had to wait: more of its work may be due than was queued. */
  onDrained?: (shopId: number) => void;
}

interface Task {
  id: string;
  run: () => Promise<void>;
}

export class ShopLanes {
  /** Waiting tasks per shop; the map's order is the order of turns (a shop just served goes to the back). */
  private readonly waiting = new Map<number, Task[]>();
  private readonly running = new Map<number, number>();
  private readonly ids = new Set<string>();
  /** Shops that had tasks waiting since their lanes were last empty. */
  private readonly queued = new Set<number>();
  private active = 0;
  private closed = false;
  private idleWaiters: (() => void)[] = [];

  constructor(private readonly options: LaneOptions) {}

  /**
   * Queues a task for the shop's lanes. False, and nothing queued, when a task with this id is waiting or running
   * already, or the lanes are closed. Tasks handle their own errors (one that throws anyway still frees its lane).
   */
  add(shopId: number, id: string, run: () => Promise<void>): boolean {
    if (this.closed || this.ids.has(id)) return false;
    this.ids.add(id);
    const queue = this.waiting.get(shopId);
    if (queue) queue.push({ id, run });
    else this.waiting.set(shopId, [{ id, run }]);
    this.pump();
    if (this.waiting.has(shopId)) this.queued.add(shopId);
    return true;
  }

  has(id: string): boolean {
    return this.ids.has(id);
  }

  /** Tasks waiting for a lane, all shops together. */
  get waitingCount(): number {
    let n = 0;
    for (const queue of this.waiting.values()) n += queue.length;
    return n;
  }

  /** Tasks of the shop waiting for a lane. */
  waitingFor(shopId: number): number {
    return this.waiting.get(shopId)?.length ?? 0;
  }

  /** Whether nothing of the shop's runs or waits. */
  isIdle(shopId: number): boolean {
    return !this.running.has(shopId) && !this.waiting.has(shopId);
  }

  /** Shops with tasks waiting for a lane. */
  waitingShops(): number[] {
    return [...this.waiting.keys()];
  }

  /** Drops the waiting tasks and resolves when the running ones have ended. */
  async close(): Promise<void> {
    this.closed = true;
    for (const queue of this.waiting.values()) for (const task of queue) this.ids.delete(task.id);
    this.waiting.clear();
    await this.idle();
  }

  /** Resolves when nothing runs or waits. */
  idle(): Promise<void> {
    if (this.active === 0 && this.waiting.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private pump(): void {
    while (this.active < this.options.total) {
      const shopId = this.nextShop();
      if (shopId === undefined) return;
      const queue = this.waiting.get(shopId)!;
      const task = queue.shift()!;
      // Its turn is over: to the back of the line, or out of it when it has nothing more waiting.
      this.waiting.delete(shopId);
      if (queue.length) this.waiting.set(shopId, queue);
      this.start(shopId, task);
    }
  }

  /** Of the shops below their share, the one with the fewest requests running; the first in turn of those. */
  private nextShop(): number | undefined {
    let best: number | undefined;
    let fewest = this.options.perShop;
    for (const shopId of this.waiting.keys()) {
      const running = this.running.get(shopId) ?? 0;
      if (running < fewest) {
        best = shopId;
        fewest = running;
      }
    }
    return best;
  }

  private start(shopId: number, task: Task): void {
    this.active++;
    this.running.set(shopId, (this.running.get(shopId) ?? 0) + 1);
    void task
      .run()
      .catch(() => undefined)
      .then(() => this.end(shopId, task));
  }

  private end(shopId: number, task: Task): void {
    this.active--;
    this.ids.delete(task.id);
    const left = this.running.get(shopId)! - 1;
    if (left > 0) this.running.set(shopId, left);
    else this.running.delete(shopId);
    this.pump();
    const empty = !this.running.has(shopId) && !this.waiting.has(shopId);
    if (empty && this.queued.delete(shopId) && !this.closed) this.options.onDrained?.(shopId);
    if (this.active === 0 && this.waiting.size === 0) {
      for (const resolve of this.idleWaiters.splice(0)) resolve();
    }
  }
}
