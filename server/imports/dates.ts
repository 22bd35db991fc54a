// The dates of imported files. Platforms export ISO 8601, `YYYY-MM-DD HH:MM:SS` (with `UTC`, an offset, or nothing:
// then UTC), and spreadsheets re-save them in the numeric form of the user's locale: day first (`03/11/2024`, most of
// Europe) or month first (`11/03/2024`, the US). Which of the two a file uses is decided over the whole file: a date
// whose first number is above 12 can only be day-first, one whose second is can only be month-first; a file with
// only dates that read both ways is ambiguous and the shop says which it is (`date_order`), as is one with both kinds.
import { formatTimestamp } from '../time.js';

export type DateOrder = 'dmy' | 'mdy';

const pad = (n: number) => String(n).padStart(2, '0');

/** A date and time that exist in the calendar (2024-02-30 does not), in UTC, minus an offset in minutes. */
function utc(y: number, mo: number, d: number, h: number, mi: number, s: number, offsetMin = 0): Date | undefined {
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 59) return undefined;
  const date = new Date(Date.UTC(y, mo - 1, d, h, mi, s));
  if (formatTimestamp(date) !== `${y}-${pad(mo)}-${pad(d)} ${pad(h)}:${pad(mi)}:${pad(s)}`) return undefined;
  return new Date(date.getTime() - offsetMin * 60_000);
}

const ISO =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2})(?:[.,]\d+)?)?)?\s*(Z|UTC|GMT|[+-]\d{2}(?::?\d{2})?)?$/i;
const NUMERIC =
  /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})(?:[ T,]+(\d{1,2}):(\d{2})(?::(\d{2}))?\s*(am|pm)?)?\s*(Z|UTC|GMT)?$/i;

function offsetMinutes(zone: string | undefined): number {
  if (!zone || /^(z|utc|gmt)$/i.test(zone)) return 0;
  const m = /^([+-])(\d{2}):?(\d{2})?$/.exec(zone)!;
  const minutes = Number(m[2]) * 60 + Number(m[3] ?? 0);
  return m[1] === '-' ? -minutes : minutes;
}

function hour12(h: number, ampm: string | undefined): number | undefined {
  if (!ampm) return h;
  if (h < 1 || h > 12) return undefined;
  return ampm.toLowerCase() === 'pm' ? (h % 12) + 12 : h % 12;
}

/** What a date cell says about the file's order of day and month. */
type DateShape = 'absolute' | 'dmy' | 'mdy' | 'either' | 'unreadable';

/** How one cell reads, before the file's order is known. */
function dateShape(raw: string): DateShape {
  const value = raw.trim();
  if (ISO.test(value)) return parseDate(value, 'dmy') ? 'absolute' : 'unreadable';
  const m = NUMERIC.exec(value);
  if (!m) return 'unreadable';
  const dmy = parseDate(value, 'dmy') !== undefined;
  const mdy = parseDate(value, 'mdy') !== undefined;
  if (dmy && mdy) return Number(m[1]) === Number(m[2]) ? 'absolute' : 'either';
  if (dmy) return 'dmy';
  if (mdy) return 'mdy';
  return 'unreadable';
}

/** The date a cell names, read with the file's order for the numeric forms; undefined when it names none. */
export function parseDate(raw: string, order: DateOrder): Date | undefined {
  const value = raw.trim();
  let m = ISO.exec(value);
  if (m) {
    return utc(+m[1]!, +m[2]!, +m[3]!, +(m[4] ?? 0), +(m[5] ?? 0), +(m[6] ?? 0), offsetMinutes(m[7]));
  }
  m = NUMERIC.exec(value);
  if (!m) return undefined;
  const [a, b] = [+m[1]!, +m[2]!];
  const [day, month] = order === 'dmy' ? [a, b] : [b, a];
  const h = hour12(+(m[4] ?? 0), m[7]);
  if (h === undefined) return undefined;
  return utc(+m[3]!, month, day, h, +(m[5] ?? 0), +(m[6] ?? 0));
}

/** Tallies the numeric dates of a file, row by row, to decide its order at the end. */
export class DateOrderEvidence {
  dmy = 0;
  mdy = 0;
  either = 0;
  /** The first line that showed each order, to name it in the question. */
  firstDmy: number | undefined;
  firstMdy: number | undefined;

  add(raw: string, line: number): void {
    if (!raw.trim()) return;
    const shape = dateShape(raw);
    if (shape === 'dmy') {
      this.dmy++;
      this.firstDmy ??= line;
    } else if (shape === 'mdy') {
      this.mdy++;
      this.firstMdy ??= line;
    } else if (shape === 'either') this.either++;
  }

  /**
   * The order to read the file with: the one given, else the one its dates show; undefined when the shop must say
   * (dates that read both ways and none that settles it, or dates of both orders).
   */
  decide(given: DateOrder | undefined): DateOrder | undefined {
    if (given) return given;
    if (this.dmy > 0 && this.mdy === 0) return 'dmy';
    if (this.mdy > 0 && this.dmy === 0) return 'mdy';
    if (this.dmy === 0 && this.mdy === 0 && this.either === 0) return 'dmy';
    return undefined;
  }

  /** Why the shop must choose, for the 422 answer. */
  question(): string {
    if (this.dmy > 0 && this.mdy > 0) {
      return `The file's dates are day-first in some rows (line ${this.firstDmy}) and month-first in others (line ${this.firstMdy}): give date_order=dmy or date_order=mdy; rows that do not fit are skipped and reported.`;
    }
    return `The file's dates (such as 03/04/2024) read both day-first and month-first: give date_order=dmy (day first) or date_order=mdy (month first).`;
  }
}
