import { hash, timingSafeEqual } from 'node:crypto';

/** A secret's digest as safeEqualDigest() takes it; callers may keep it with the secret. */
export const secretDigest = (secret: string): Buffer => hash('sha256', secret, 'buffer');

/** Compares two secrets in constant time (hashing first, so lengths leak nothing either). */
export function safeEqual(given: string, expected: string): boolean {
  return safeEqualDigest(given, secretDigest(expected));
}

/** safeEqual() against the digest of the expected secret. */
export function safeEqualDigest(given: string, expectedDigest: Buffer): boolean {
  return timingSafeEqual(secretDigest(given), expectedDigest);
}

/** A positive integer id from a query value; anything else (arrays, objects, signs, blanks) is undefined. */
export function parseId(value: unknown): number | undefined {
  if (typeof value !== 'string' || !/^\d{1,15}$/.test(value.trim())) return undefined;
  const id = Number(value.trim());
  return id > 0 && Number.isSafeInteger(id) ? id : undefined;
}
