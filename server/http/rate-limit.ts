// Fixed-window request counters per key (client address, webshop). In-process: with several processes each
// enforces the limit on its own share of the traffic. Memory is bounded by pruning finished windows.

export class RateLimiter {
  private windowStart = 0;
  private counts = new Map<string, number>();

  /** `perMinute` is the number allowed per window; the window is a minute unless `windowMs` says otherwise. */
  constructor(
    private readonly perMinute: number,
    private readonly now: () => number = Date.now,
    private readonly maxKeys = 200_000,
    private readonly windowMs = 60_000,
  ) {}

  /** Counts a request; returns 0 when allowed, else the seconds until the window resets (for Retry-After). */
  hit(key: string): number {
    if (this.perMinute <= 0) return 0;
    const now = this.now();
    if (now - this.windowStart >= this.windowMs || this.counts.size > this.maxKeys) {
      this.windowStart = now;
      this.counts = new Map();
    }
    const count = (this.counts.get(key) ?? 0) + 1;
    this.counts.set(key, count);
    if (count <= this.perMinute) return 0;
    return Math.max(1, Math.ceil((this.windowStart + this.windowMs - now) / 1000));
  }
}
