// Time formats of the API. All API timestamps are UTC (see docs/decisions.md).

const pad = (n: number) => String(n).padStart(2, '0');

/** `YYYY-MM-DD HH:MM:SS` (UTC), the JSON timestamp format of the spec. */
export function formatTimestamp(date: Date): string {
  return `${formatDate(date)} ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}`;
}

/** `YYYY-MM-DD` (UTC). */
export function formatDate(date: Date): string {
  return `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
}

/** ISO 8601 with an explicit offset and whole seconds, e.g. `2024-11-03T07:00:00+00:00` (the feed's format). */
export function formatIso(date: Date): string {
  return `${formatDate(date)}T${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}+00:00`;
}

export const DAY_MS = 86_400_000;

export function addDays(date: Date, days: number): Date {
  return new Date(date.getTime() + days * DAY_MS);
}

/**
 * Parses `Y-m-d H:i:s` (UTC) or ISO 8601 with an offset, where a `+` may have arrived decoded as a space
 * (`2024-11-03T08:00:00 01:00`). Returns undefined for anything else.
 */
export function parseSyncTime(input: string): Date | undefined {
  const value = input.trim();
  let m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})$/.exec(value);
  if (m) {
    const date = new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!));
    // Date.UTC rolls 2024-13-45 over into 2025: only dates that survive the round trip are real.
    return formatTimestamp(date) === `${m[1]}-${m[2]}-${m[3]} ${m[4]}:${m[5]}:${m[6]}` ? date : undefined;
  }
  m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})(?:\.\d+)?(?:(Z)|([+\- ])(\d{2}):?(\d{2}))$/.exec(value);
  if (!m) return undefined;
  // The same round trip for the local date and time as above, so that 2024-02-30 is not read as 1 March.
  if (!parseSyncTime(`${m[1]} ${m[2]}`)) return undefined;
  const offset = m[3] ? 'Z' : `${m[4] === '-' ? '-' : '+'}${m[5]}:${m[6]}`;
  const date = new Date(`${m[1]}T${m[2]}${offset}`);
  return Number.isNaN(date.getTime()) ? undefined : date;
}
