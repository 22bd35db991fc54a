import { createHash, timingSafeEqual } from 'node:crypto';

/** Compares two secrets in constant time (hashing first, so lengths leak nothing either). */
export function safeEqual(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/** A positive integer id from a query value; anything else (arrays, objects, signs, blanks) is undefined. */
export function parseId(value: unknown): number | undefined {
  if (typeof value !== 'string' || !/^\d{1,15}$/.test(value.trim())) return undefined;
  const id = Number(value.trim());
  return id > 0 && Number.isSafeInteger(id) ? id : undefined;
}
