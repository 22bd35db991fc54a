// Retry schedules as the configuration writes them (`1m,5m,2h`): read by server/config.ts, used by the e-mail
// retries (mail/retry.ts). Pure.

const UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Nine attempts over about 16 hours: a mail server that is down for a night still gets its mail in the morning. */
export const DEFAULT_RETRY_SCHEDULE = '1m,5m,15m,30m,1h,2h,4h,8h';

/**
 * Parses `1m,5m,2h` (units s, m, h, d) into delays in ms: the wait before the 2nd, 3rd, … attempt.
 * Returns undefined when the text is not such a list (the configuration reports it).
 */
export function parseRetrySchedule(text: string): number[] | undefined {
  const parts = text.split(',').map((p) => p.trim());
  const delays: number[] = [];
  for (const part of parts) {
    const m = /^(\d{1,6})([smhd])$/.exec(part);
    if (!m) return undefined;
    const ms = Number(m[1]) * UNITS[m[2]!]!;
    if (ms <= 0) return undefined;
    delays.push(ms);
  }
  return delays.length > 0 && delays.length <= 50 ? delays : undefined;
}
