// The date of the experience a review is about (French decree 2017-1436; issue 21): the order's date when the
// service saw the order (the invitation or the signed order data arriving), else the month and year the writer gave.
// Stored as `YYYY-MM-DD` when the day is known and `YYYY-MM` when only the month is: a form review's writer names a
// month, and a day made up for it would claim a precision nobody gave.
import { formatDate } from '../time.js';
import type { Review } from './model.js';

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;
/** The earliest month a writer may name: older experiences say little about the shop as it is. */
const EARLIEST_YEAR = 2000;

/**
 * The review's experience date. Reviews stored before it existed carry none: an import's original date, else the
 * review's own date, which is when the service learned of the experience.
 */
export function experienceDateOf(r: Pick<Review, 'experience_date' | 'original_date' | 'created'>): string {
  const stored = r.experience_date;
  if (typeof stored === 'string') return stored;
  // Dashboard bulk imports store the file's order date as a Date (null when the file had none).
  if (stored instanceof Date) return formatDate(stored);
  return formatDate(r.original_date ?? r.created);
}

/** `YYYY-MM`: a month the writer may name at `now` — a real month, not after the current one (UTC). */
export function isExperienceMonth(value: string, now: Date): boolean {
  const m = MONTH.exec(value);
  if (!m) return false;
  const year = Number(m[1]);
  const current = formatDate(now).slice(0, 7);
  return year >= EARLIEST_YEAR && value <= current;
}

/** The current month (UTC) as `YYYY-MM`: the experience of a form review whose writer named none (older embeds). */
export function currentMonth(now: Date): string {
  return formatDate(now).slice(0, 7);
}

/** The first day of the experience's month, for showing it as "March 2026" (the day, when known, is not shown). */
export function experienceMonthStart(experience: string): Date {
  const [year, month] = experience.split('-');
  return new Date(Date.UTC(Number(year), Number(month) - 1, 1));
}
