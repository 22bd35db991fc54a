// A clock for the scheduler and the wake-up pusher (server/jobs/clock.ts) that moves only when a test moves it:
// what they decide is then the same on a busy machine as on a quiet one.
import type { Clock } from '../server/jobs/clock.js';

interface Timer {
  at: number;
  ms: number;
  fn: () => void;
}

export class ManualClock implements Clock {
  private timers: Timer[] = [];

  constructor(private time = Date.UTC(2026, 0, 1)) {}

  now(): number {
    return this.time;
  }

  after(ms: number, fn: () => void): () => void {
    const timer = { at: this.time + Math.max(0, ms), ms, fn };
    this.timers.push(timer);
    return () => {
      this.timers = this.timers.filter((t) => t !== timer);
    };
  }

  /** The waits asked for and not yet over, in ms as asked, the soonest first. */
  get waiting(): number[] {
    return [...this.timers].sort((a, b) => a.at - b.at).map((t) => t.ms);
  }

  /** Moves the clock on by `ms`, calling the timers that come due on the way, each at its own time. */
  advance(ms: number): void {
    const until = this.time + ms;
    for (;;) {
      const next = [...this.timers].sort((a, b) => a.at - b.at)[0];
      if (!next || next.at > until) break;
      this.timers = this.timers.filter((t) => t !== next);
      this.time = next.at;
      next.fn();
    }
    this.time = until;
  }
}
