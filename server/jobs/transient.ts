// Transient database errors in scheduled work: which errors pass by themselves, how long to wait before trying
// again, and logging them once per episode rather than once per attempt.
//
// On FerretDB with SQLite, a write that starts as a read (an update, findAndModify) fails at once with SQLITE_BUSY
// when another connection wrote in between; its busy timeout does not help there. On MongoDB the usual ones are a
// dropped connection, a primary stepping down and a server not reachable for a moment.
import { MongoError, MongoNetworkError, MongoServerSelectionError } from 'mongodb';
import type { Logger } from '../log.js';

/** The server's codes for "try again" (the driver's own list of retryable codes). */
const TRANSIENT_CODES = new Set([6, 7, 89, 91, 189, 262, 9001, 10107, 11600, 11602, 13435, 13436, 134]);
const TRANSIENT_MESSAGE =
  /SQLITE_BUSY|database is locked|connection (?:\S+ )?(?:closed|reset)|ECONNRESET|ECONNREFUSED|EPIPE/i;

/** Whether an error (or the error it wraps) is one that passes by itself. */
export function isTransient(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (e instanceof MongoNetworkError || e instanceof MongoServerSelectionError) return true;
    if (e instanceof MongoError) {
      if (e.hasErrorLabel('RetryableWriteError') || e.hasErrorLabel('TransientTransactionError')) return true;
      if (typeof e.code === 'number' && TRANSIENT_CODES.has(e.code)) return true;
    }
    if (TRANSIENT_MESSAGE.test(e.message)) return true;
  }
  return false;
}

const FIRST_BACKOFF_MS = 50;
export const MAX_BACKOFF_MS = 5000;

/**
 * The wait before retry number `attempt` (0 for the first): doubling from 50 ms up to 5 s, each between half and
 * all of that at random, so that two processes that collided do not collide again in step.
 */
export function backoffMs(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** Math.min(attempt, 20));
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}

/**
 * One kind of operation's run of failures: the first failure is logged (warn), the others are counted, and the
 * first success afterwards logs how long it lasted (info). An episode also ends after a quiet minute, for
 * operations whose successes nobody reports (Agenda's own polling).
 */
export class Episode {
  private failures = 0;
  private startedAt = 0;
  private lastFailureAt = 0;

  constructor(
    private readonly log: Logger,
    private readonly what: string,
    private readonly quietMs = 60_000,
    private readonly clock: () => number = Date.now,
  ) {}

  failed(err: unknown): void {
    const now = this.clock();
    if (this.failures > 0 && now - this.lastFailureAt > this.quietMs) this.failures = 0;
    this.lastFailureAt = now;
    if (this.failures++ > 0) return;
    this.startedAt = now;
    this.log.warn(
      { err, operation: this.what },
      `${this.what}: transient database error, retrying (logged once until it recovers)`,
    );
  }

  recovered(): void {
    if (this.failures === 0) return;
    this.log.info(
      { operation: this.what, failures: this.failures, ms: this.clock() - this.startedAt },
      `${this.what}: recovered`,
    );
    this.failures = 0;
  }

  get failing(): boolean {
    return this.failures > 0;
  }
}

interface RetryOptions {
  episode: Episode;
  /** Which errors to try again after (others are thrown at once). */
  retryable: (err: unknown) => boolean;
  /** When true, the next failure is thrown instead of retried (the process is stopping). */
  givingUp: () => boolean;
  /** Called before each retry (e.g. to keep a lock). */
  beforeRetry?: () => Promise<void>;
  sleep?: (ms: number) => Promise<void>;
}

const realSleep = (ms: number) => new Promise<void>((ok) => setTimeout(ok, ms));

/** Runs `operation` until it succeeds, waiting with backoff after each retryable failure. */
export async function withRetry<T>(operation: () => Promise<T>, options: RetryOptions): Promise<T> {
  const sleep = options.sleep ?? realSleep;
  for (let attempt = 0; ; attempt++) {
    try {
      const result = await operation();
      options.episode.recovered();
      return result;
    } catch (err) {
      if (!options.retryable(err) || options.givingUp()) throw err;
      options.episode.failed(err);
      await sleep(backoffMs(attempt));
      await options.beforeRetry?.().catch(() => undefined);
    }
  }
}
