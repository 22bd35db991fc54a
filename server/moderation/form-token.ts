// The report form's hidden token: the review id and when the form was shown, signed with the service's key.
// Without cookies there is no session to protect; what the token stops is a page elsewhere (or a script) posting
// reports blind: a post must come from a form this service showed for this review, within FORM_TOKEN_TTL_MS.
import { createHmac, timingSafeEqual } from 'node:crypto';

export const FORM_TOKEN_TTL_MS = 2 * 3_600_000;

const mac = (key: Buffer, reviewId: number, issued: number) =>
  createHmac('sha256', key).update(`report-form:${reviewId}:${issued}`).digest('base64url');

export function signFormToken(key: Buffer, reviewId: number, at: Date): string {
  const issued = Math.floor(at.getTime() / 1000);
  return `${issued}.${mac(key, reviewId, issued)}`;
}

export function verifyFormToken(key: Buffer, reviewId: number, token: unknown, now: Date): boolean {
  if (typeof token !== 'string') return false;
  const match = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return false;
  const issued = Number(match[1]);
  const age = now.getTime() - issued * 1000;
  // A minute of slack for clocks of processes behind one load balancer.
  if (age < -60_000 || age > FORM_TOKEN_TTL_MS) return false;
  const expected = Buffer.from(mac(key, reviewId, issued));
  const given = Buffer.from(match[2]!);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
