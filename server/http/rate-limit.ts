// Request counters per key (client address, webshop), each in a window of its own that starts with the key's first
// request. In-process: with several processes each enforces the limit on its own share of the traffic.
// Memory is bounded by maxKeys: past it the least recently used keys are forgotten, never the busy ones, so a
// client cannot reset its own counter by sending requests under many other keys.
// Every limit of the service answers the same way: 429, `Retry-After`, one message, in the envelope of the
// endpoint (tooManyRequests). Limits on who is asking are middleware declared at the route or in server/routes.ts
// (rateLimit); limits on what was asked (an e-mail address in a body, the shop of checked credentials) call
// enforceLimit once they know the key.
import type { Context, Middleware } from 'koa';
import { HttpError } from './errors.js';

export const TOO_MANY_REQUESTS = 'Too many requests. Please try again later.';

/**
 * The 429 every limit answers; `waitSeconds` goes to Retry-After. `code`: another than `too_many_requests` only where
 * the caller may act on which limit it was (an owner's daily team additions).
 */
export function tooManyRequests(
  waitSeconds: number,
  message: string = TOO_MANY_REQUESTS,
  code = 'too_many_requests',
): HttpError {
  return new HttpError(429, message, code, { 'Retry-After': String(waitSeconds) });
}

interface Window {
  start: number;
  count: number;
}

export class RateLimiter {
  /** In order of last use (a hit moves its key to the end), so the first keys are the least recently used. */
  private readonly windows = new Map<string, Window>();

  /** `perMinute` is the number allowed per window; the window is a minute unless `windowMs` says otherwise. */
  constructor(
    private readonly perMinute: number,
    private readonly now: () => number = Date.now,
    private readonly maxKeys = 200_000,
    private readonly windowMs = 60_000,
  ) {}

  /** Counts a request; returns 0 when allowed, else the seconds until the key's window ends (for Retry-After). */
  hit(key: string): number {
    if (this.perMinute <= 0) return 0;
    const now = this.now();
    const previous = this.windows.get(key);
    this.windows.delete(key);
    const window = previous && now - previous.start < this.windowMs ? previous : { start: now, count: 0 };
    window.count++;
    this.windows.set(key, window);
    this.forgetUnused(now);
    if (window.count <= this.perMinute) return 0;
    return Math.max(1, Math.ceil((window.start + this.windowMs - now) / 1000));
  }

  get size(): number {
    return this.windows.size;
  }

  /** Drops ended windows from the least recently used end, then keys past maxKeys. */
  private forgetUnused(now: number): void {
    for (const [key, window] of this.windows) {
      if (this.windows.size <= this.maxKeys && now - window.start < this.windowMs) break;
      this.windows.delete(key);
    }
  }
}

/** Counts a request under `key` and throws the 429 when the key is over its limit. */
export function enforceLimit(limiter: RateLimiter, key: string): void {
  const wait = limiter.hit(key);
  if (wait > 0) throw tooManyRequests(wait);
}

/** The limit as middleware: `key` names who is counted (e.g. the client address). */
export function rateLimit(limiter: RateLimiter, key: (ctx: Context) => string): Middleware {
  return async (ctx, next) => {
    enforceLimit(limiter, key(ctx));
    await next();
  };
}
