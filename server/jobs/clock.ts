// The time the scheduler and the wake-up pusher space their work by: the real clock, or in tests one moved by hand,
// so that what they decided (when a run starts, when a push leaves, how long a retry waits) is checked exactly.
export interface Clock {
  now(): number;
  /** Calls `fn` once `ms` have passed on this clock; returns what cancels the call. */
  after(ms: number, fn: () => void): () => void;
}

export const realClock: Clock = {
  now: () => Date.now(),
  after: (ms, fn) => {
    const timer = setTimeout(fn, ms);
    return () => clearTimeout(timer);
  },
};

export const sleepOn = (clock: Clock, ms: number): Promise<void> => new Promise((ok) => clock.after(ms, ok));
