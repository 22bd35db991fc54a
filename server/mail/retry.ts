// When a failed e-mail is tried again, and which failures are worth trying again. Pure functions.

/** After `attempts` failed attempts: how long to wait for the next one, or undefined to give up. */
function retryDelay(attempts: number, schedule: readonly number[]): number | undefined {
  return schedule[Math.max(1, attempts) - 1];
}

type FailureKind = 'transient' | 'permanent';

/** What to do after a failed attempt: try again at `retryAt`, or give up (permanent, or out of retries). */
export function afterFailure(
  attempts: number,
  kind: FailureKind,
  schedule: readonly number[],
  now: Date,
): { retryAt: Date } | { giveUp: string } {
  if (kind === 'permanent') return { giveUp: 'rejected' };
  const wait = retryDelay(attempts, schedule);
  return wait === undefined
    ? { giveUp: `gave up after ${attempts} attempts` }
    : { retryAt: new Date(now.getTime() + wait) };
}

/**
 * A failure of the server or the connection rather than of this one message (refused, timed out, 421, login):
 * the next messages would fail the same way, so the run stops instead of trying each of them.
 */
export function isServerFailure(err: unknown): boolean {
  const e = (err ?? {}) as { responseCode?: unknown; code?: unknown };
  return typeof e.responseCode !== 'number' || e.responseCode === 421 || e.code === 'EAUTH';
}

/**
 * A 5xx answer to the recipient or the message is permanent: the server will say the same tomorrow. Everything
 * else is transient: 4xx answers, connection problems, timeouts, and also 5xx answers to our login (a wrong
 * password is fixed by the operator, not by the customer, so the invitation must not be given up).
 */
export function classifySendError(err: unknown): FailureKind {
  const e = (err ?? {}) as { responseCode?: unknown; code?: unknown };
  const status = typeof e.responseCode === 'number' ? e.responseCode : undefined;
  if (status === undefined || status < 500 || status > 599) return 'transient';
  return e.code === 'EENVELOPE' || e.code === 'EMESSAGE' ? 'permanent' : 'transient';
}

/** A short, single-line reason for the record (SMTP replies can be long and multi-line). */
export function describeSendError(err: unknown): string {
  const e = (err ?? {}) as { message?: unknown; response?: unknown; code?: unknown };
  const text = typeof e.response === 'string' ? e.response : typeof e.message === 'string' ? e.message : String(err);
  const code = typeof e.code === 'string' ? `${e.code}: ` : '';
  return (code + text).replace(/\s+/g, ' ').trim().slice(0, 300);
}

/**
 * How often the mail drains also run on their own (besides being triggered): often enough that a due e-mail, a retry
 * or the work of a crashed process (whose claims expire after JOB_LOCK_MS) is picked up within a minute.
 */
export function mailSweepMs(config: { scheduler: { lockLifetimeMs: number } }): number {
  return Math.max(1000, Math.min(15_000, Math.floor(config.scheduler.lockLifetimeMs / 2)));
}
