import { describe, expect, it } from 'vitest';
import { can, DASHBOARD_ACTIONS, ROLES } from './roles.js';
import {
  newSessionTimes,
  readCookie,
  SESSION_IDLE_MS,
  SESSION_MAX_MS,
  sessionCookie,
  sessionLive,
  slide,
  takesLastOwner,
} from './rules.js';

describe('roles', () => {
  it('support reads and answers; manager also e-mails the reviewer, invites, sets up the widget, exports and imports reviews, sees the Google section; owner does everything', () => {
    const table = Object.fromEntries(ROLES.map((r) => [r, DASHBOARD_ACTIONS.filter((a) => can(r, a))]));
    expect(table).toEqual({
      owner: [
        'read',
        'reply',
        'notify',
        'report',
        'mark_read',
        'invite',
        'widget',
        'integration',
        'team',
        'export',
        'import',
        'google',
      ],
      manager: ['read', 'reply', 'notify', 'report', 'mark_read', 'invite', 'widget', 'export', 'import', 'google'],
      support: ['read', 'reply', 'report', 'mark_read'],
    });
  });
});

describe('session times', () => {
  const start = new Date('2026-01-01T00:00:00Z');
  const at = (ms: number) => new Date(start.getTime() + ms);

  it('a new session ends after 30 idle days, 90 at most', () => {
    const s = newSessionTimes(start);
    expect(s.expires).toEqual(at(SESSION_IDLE_MS));
    expect(s.absoluteExpires).toEqual(at(SESSION_MAX_MS));
    expect(sessionLive(s, at(SESSION_IDLE_MS - 1))).toBe(true);
    expect(sessionLive(s, at(SESSION_IDLE_MS))).toBe(false);
  });

  it('slides at most once an hour and never past the absolute end', () => {
    const s = newSessionTimes(start);
    expect(slide(s, at(3_599_000))).toBeNull();
    expect(slide(s, at(3_600_000))).toEqual({ lastSeen: at(3_600_000), expires: at(3_600_000 + SESSION_IDLE_MS) });
    const late = at(SESSION_MAX_MS - 1000);
    expect(slide({ ...s, lastSeen: at(SESSION_MAX_MS - 10 * 86_400_000) }, late)!.expires).toEqual(at(SESSION_MAX_MS));
  });
});

describe('the cookie', () => {
  it('over http: session, no Secure; over https: __Host-session, Secure', () => {
    expect(sessionCookie('http://localhost:3000', 'v', 1000)).toBe(
      'session=v; Path=/; HttpOnly; SameSite=Lax; Max-Age=1',
    );
    expect(sessionCookie('https://reviews.example', 'v', 1000)).toBe(
      '__Host-session=v; Path=/; HttpOnly; SameSite=Lax; Max-Age=1; Secure',
    );
  });

  it('reads one cookie among others, by its exact name', () => {
    expect(readCookie('a=1; session=abc; b=2', 'session')).toBe('abc');
    expect(readCookie('xsession=abc', 'session')).toBeUndefined();
    expect(readCookie(undefined, 'session')).toBeUndefined();
  });
});

describe('a shop keeps an owner', () => {
  const team = [
    { userId: 1, role: 'owner' as const },
    { userId: 2, role: 'manager' as const },
  ];
  it('refuses to demote or remove the only owner', () => {
    expect(takesLastOwner(team, 1, 'manager')).toBe(true);
    expect(takesLastOwner(team, 1, null)).toBe(true);
    expect(takesLastOwner(team, 1, 'owner')).toBe(false);
  });
  it('allows it with another owner, and any change to the others', () => {
    expect(takesLastOwner([...team, { userId: 3, role: 'owner' }], 1, null)).toBe(false);
    expect(takesLastOwner(team, 2, null)).toBe(false);
    expect(takesLastOwner([{ userId: 2, role: 'manager' }], 2, 'support')).toBe(false);
  });
});
