// The accounts' rules as pure functions: how long links and sessions live, when a session slides, the session
// cookie's name and attributes, and the one rule of a team (a shop always keeps an owner).
import type { Role } from './roles.js';

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

/** A sign-in link works once, within this time of being made. */
export const SIGN_IN_LINK_MS = 15 * MINUTE_MS;
/** A session unused this long ends (each use moves its end). */
export const SESSION_IDLE_MS = 30 * DAY_MS;
/** No session lives longer than this, however much it is used. */
export const SESSION_MAX_MS = 90 * DAY_MS;
/**
 * A session's last use is written at most this often: on the embedded database an update by `_id` costs more than
 * the rest of a request (BENCHMARKS.md), and the 30 days need no finer step.
 */
const SESSION_TOUCH_MS = 60 * MINUTE_MS;
/** Sessions kept per user; a new one past this ends the one used least recently. */
export const SESSIONS_PER_USER = 30;

export interface SessionTimes {
  created: Date;
  lastSeen: Date;
  expires: Date;
  absoluteExpires: Date;
}

export function newSessionTimes(now: Date): SessionTimes {
  return {
    created: now,
    lastSeen: now,
    expires: new Date(Math.min(now.getTime() + SESSION_IDLE_MS, now.getTime() + SESSION_MAX_MS)),
    absoluteExpires: new Date(now.getTime() + SESSION_MAX_MS),
  };
}

export function sessionLive(s: Pick<SessionTimes, 'expires' | 'absoluteExpires'>, now: Date): boolean {
  return now < s.expires && now < s.absoluteExpires;
}

/** The session's new last use and end after a use at `now`, or null when nothing needs writing yet. */
export function slide(s: SessionTimes, now: Date): Pick<SessionTimes, 'lastSeen' | 'expires'> | null {
  if (now.getTime() - s.lastSeen.getTime() < SESSION_TOUCH_MS) return null;
  return {
    lastSeen: now,
    expires: new Date(Math.min(now.getTime() + SESSION_IDLE_MS, s.absoluteExpires.getTime())),
  };
}

export function linkExpired(link: { expires: Date }, now: Date): boolean {
  return now >= link.expires;
}

// The cookie. Over https the `__Host-` prefix makes the browser refuse it unless it is Secure, has Path=/ and no
// Domain: no sibling subdomain can plant or shadow it. Lax keeps it off cross-site POSTs and subresources.
export const cookieName = (baseUrl: string): string => (isHttps(baseUrl) ? '__Host-session' : 'session');

const isHttps = (baseUrl: string) => baseUrl.startsWith('https:');

export function sessionCookie(baseUrl: string, value: string, maxAgeMs: number): string {
  const parts = [
    `${cookieName(baseUrl)}=${value}`,
    'Path=/',
    'HttpOnly',
    'SameSite=Lax',
    `Max-Age=${Math.max(0, Math.floor(maxAgeMs / 1000))}`,
  ];
  if (isHttps(baseUrl)) parts.push('Secure');
  return parts.join('; ');
}

export const clearedSessionCookie = (baseUrl: string): string => sessionCookie(baseUrl, '', 0);

/** The value of cookie `name` in a Cookie header, or undefined. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** Session and link secrets are 32 random bytes in base64url: 43 characters. Anything else is never looked up. */
export const SECRET_FORMAT = /^[A-Za-z0-9_-]{43}$/;

/**
 * Whether setting `userId`'s role in the shop to `role` (null: removing them) takes away its last owner. A shop
 * without an owner yet (the operator adds its first users) may get managers and support first.
 */
export function takesLastOwner(members: { userId: number; role: Role }[], userId: number, role: Role | null): boolean {
  const target = members.find((m) => m.userId === userId);
  if (target?.role !== 'owner' || role === 'owner') return false;
  return !members.some((m) => m.role === 'owner' && m.userId !== userId);
}

/** The key an address is found by: the same person types `Jane@Shop.nl` and `jane@shop.nl`. */
export const addressKey = (email: string): string => email.trim().toLowerCase();

/**
 * A user nobody ever signed in as, who belongs to no shop, is removed this long after being added to a shop (or
 * after leaving their last one): an addition by mistake, or to probe, leaves no address behind for good.
 */
export const UNUSED_USER_MS = 30 * DAY_MS;

/** Whether the clean-up may remove the user: never signed in, and in no shop. */
export const unusedUser = (user: { lastSignIn: Date | null; roles: Record<string, unknown> }): boolean =>
  user.lastSignIn === null && Object.keys(user.roles).length === 0;

/**
 * What a shop's team list says of a member's sign-ins: only whether they signed in since being added to this shop.
 * A sign-in is for all of a user's shops, so it lets them use this one too; its time, or a sign-in before they
 * were added, would tell of their use of other shops. `addedAt` null: added before additions were recorded.
 */
export const signedInSinceAdded = (lastSignIn: Date | null, addedAt: Date | null): boolean =>
  lastSignIn !== null && addedAt !== null && lastSignIn >= addedAt;
