// The accounts' rules that span stores: sign-in links (made, e-mailed, used once), sessions (made, found, slid,
// ended) and teams (users added, re-roled, removed; a shop keeps an owner), with every team change in the audit
// trail. Used by the dashboard's routes (routes.ts), the operator's (admin.ts), the demo link at start and tests.
import { randomBytes } from 'node:crypto';
import type { AuditActor } from '../audit/store.js';
import { HttpError } from '../http/errors.js';
import type { Language } from '../languages.js';
import { signInMail } from '../mail/templates.js';
import { sha256Hex } from '../hash.js';
import type { Services } from '../services.js';
import { mainLanguage } from '../webshops/rules.js';
import type { Role } from './roles.js';
import {
  addressKey,
  linkExpired,
  newSessionTimes,
  SECRET_FORMAT,
  sessionLive,
  SESSION_MAX_MS,
  SESSIONS_PER_USER,
  SIGN_IN_LINK_MS,
  slide,
  takesLastOwner,
} from './rules.js';
import type { Session } from './session-store.js';
import { membershipsOf, type Membership, type User } from './user-store.js';

type AccountServices = Pick<Services, 'config' | 'log' | 'now' | 'users' | 'sessions' | 'signInLinks' | 'mailer' | 'audit' | 'webshops'>;

/** 32 random bytes, base64url: the secret of a link or a session cookie. */
const newSecret = (): string => randomBytes(32).toString('base64url');

const signInUrl = (config: Services['config'], secret: string): string => `${config.baseUrl}/dashboard/sign-in/${secret}`;
const requestUrl = (config: Services['config']): string => `${config.baseUrl}/dashboard/`;

/** Makes a sign-in link for the user and returns its address (the e-mail, the demo owner's line at start). */
export async function createSignInLink(services: AccountServices, userId: number): Promise<string> {
  const secret = newSecret();
  const created = services.now();
  await services.signInLinks.add({ digest: sha256Hex(secret), userId, created, expires: new Date(created.getTime() + SIGN_IN_LINK_MS) });
  return signInUrl(services.config, secret);
}

interface SignInMailTeam {
  shopName: string;
  role: Role;
}

/** E-mails a fresh link, without waiting for the SMTP server: a hiccup there is the log's business, not the caller's. */
function sendSignInMail(services: AccountServices, user: User, url: string, language: Language, team?: SignInMailTeam): void {
  const mail = signInMail({
    language,
    brandName: services.config.brandName,
    signInUrl: url,
    team: team && { ...team, requestUrl: requestUrl(services.config) },
  });
  const messageId = `<sign-in.${randomBytes(12).toString('hex')}@${services.mailer.domain}>`;
  services.mailer
    .send({ fromName: team?.shopName ?? services.config.brandName, to: user.email, ...mail, messageId })
    .catch((err: unknown) => services.log.warn({ err, userId: user.id }, 'sign-in e-mail not sent'));
}

type LinkRequestOutcome = 'sent' | 'no_access' | 'limited';

/**
 * Someone asked for a link for `email`: only a user with at least one shop gets one, and no more than the limits
 * per address allow (counted by digest: the places hold no addresses). The caller answers the same whatever the
 * outcome, so asking for someone's links never locks them out.
 */
export async function requestSignInLink(services: AccountServices, email: string, language: Language): Promise<LinkRequestOutcome> {
  const user = await services.users.findByEmail(email);
  if (!user || membershipsOf(user).length === 0) return 'no_access';
  if (!(await services.signInLinks.takeLinkPlace(sha256Hex(addressKey(user.email))))) return 'limited';
  sendSignInMail(services, user, await createSignInLink(services, user.id), language);
  return 'sent';
}

type LinkState = 'valid' | 'used' | 'expired' | 'unknown';

/** What a link would do, without using it (the GET page: mail scanners open links). */
export async function signInLinkState(services: AccountServices, secret: string): Promise<LinkState> {
  if (!SECRET_FORMAT.test(secret)) return 'unknown';
  const link = await services.signInLinks.byDigest(sha256Hex(secret));
  if (!link) return 'unknown';
  if (await services.signInLinks.used(link.digest)) return 'used';
  return linkExpired(link, services.now()) ? 'expired' : 'valid';
}

interface NewSession {
  /** The cookie's value: the only copy of the secret. */
  secret: string;
  session: Session;
}

/** Uses the link (once) and starts a session; otherwise says why not. */
export async function signIn(
  services: AccountServices,
  secret: string,
  userAgent: string,
): Promise<{ ok: true; session: NewSession } | { ok: false; reason: Exclude<LinkState, 'valid'> }> {
  if (!SECRET_FORMAT.test(secret)) return { ok: false, reason: 'unknown' };
  const link = await services.signInLinks.byDigest(sha256Hex(secret));
  if (!link) return { ok: false, reason: 'unknown' };
  const now = services.now();
  if (linkExpired(link, now)) return { ok: false, reason: 'expired' };
  if (!(await services.signInLinks.use(link, now))) return { ok: false, reason: 'used' };
  const user = await services.users.get(link.userId);
  // Removed from every shop since the link was sent: the link no longer leads anywhere.
  if (!user || membershipsOf(user).length === 0) return { ok: false, reason: 'unknown' };
  const session = await startSession(services, user.id, userAgent);
  await services.users.recordSignIn(user.id, now);
  return { ok: true, session };
}

/** A session for the user (sign-in, tests); the oldest sessions past SESSIONS_PER_USER end. */
export async function startSession(services: AccountServices, userId: number, userAgent: string): Promise<NewSession> {
  const secret = newSecret();
  const session: Session = {
    id: randomBytes(9).toString('base64url'),
    digest: sha256Hex(secret),
    userId,
    csrf: randomBytes(32).toString('base64url'),
    userAgent: userAgent.slice(0, 300),
    ...newSessionTimes(services.now()),
  };
  const existing = await services.sessions.ofUser(userId);
  const byUse = existing.sort((a, b) => a.lastSeen.getTime() - b.lastSeen.getTime());
  for (const old of byUse.slice(0, Math.max(0, byUse.length - SESSIONS_PER_USER + 1))) await services.sessions.revoke(userId, old.id);
  await services.sessions.create(session);
  return { secret, session };
}

interface SignedIn {
  session: Session;
  user: User;
  memberships: Membership[];
}

/** The live session of a cookie's secret with its user, its end moved on by this use; null when there is none. */
export async function sessionOf(services: AccountServices, secret: string | undefined): Promise<SignedIn | null> {
  if (!secret || !SECRET_FORMAT.test(secret)) return null;
  const session = await services.sessions.byDigest(sha256Hex(secret));
  if (!session) return null;
  const now = services.now();
  if (!sessionLive(session, now)) {
    await services.sessions.revoke(session.userId, session.id);
    return null;
  }
  const user = await services.users.get(session.userId);
  if (!user) return null;
  const moved = slide(session, now);
  if (moved) {
    await services.sessions.touch(session.digest, moved);
    Object.assign(session, moved);
  }
  return { session, user, memberships: membershipsOf(user) };
}

/** The user's live sessions, oldest first. */
export async function liveSessions(services: AccountServices, userId: number): Promise<Session[]> {
  const now = services.now();
  return (await services.sessions.ofUser(userId)).filter((s) => sessionLive(s, now));
}

// ---- Teams -------------------------------------------------------------------------------------------------------

export interface TeamMember {
  user: User;
  role: Role;
  sessions: number;
}

/** Sessions of the user, from their list alone (one read a user: the team page shows a count, not the sessions). */
const sessionCount = (services: AccountServices, userId: number) =>
  services.sessions.countListed(userId, new Date(services.now().getTime() - SESSION_MAX_MS));

export async function listTeam(services: AccountServices, shopId: number): Promise<TeamMember[]> {
  const users = await services.users.team(shopId);
  return Promise.all(users.map(async (user) => ({ user, role: user.roles[String(shopId)]!, sessions: await sessionCount(services, user.id) })));
}

async function teamMember(services: AccountServices, shopId: number, userId: number): Promise<TeamMember> {
  const user = await services.users.get(userId);
  const role = user?.roles[String(shopId)];
  if (!user || !role) throw new HttpError(404, 'No such user in this shop.');
  return { user, role, sessions: await sessionCount(services, user.id) };
}

async function membersOf(services: AccountServices, shopId: number): Promise<{ userId: number; role: Role }[]> {
  return (await services.users.team(shopId)).map((u) => ({ userId: u.id, role: u.roles[String(shopId)]! }));
}

/** Adds the address to the shop's team and e-mails it a sign-in link; 409 when it is in the team already. */
export async function addTeamMember(
  services: AccountServices,
  shopId: number,
  input: { email: string; role: Role; language?: Language },
  actor: AuditActor,
): Promise<TeamMember> {
  const shop = await services.webshops.get(shopId);
  if (!shop) throw new HttpError(404, 'No such webshop.');
  const user = await services.users.findOrCreate(input.email);
  await services.users.withTeamLock(shopId, async () => {
    const fresh = await services.users.get(user.id);
    if (fresh?.roles[String(shopId)]) throw new HttpError(409, 'This address is in the team already; change its role instead.', 'already_member');
    await services.users.setRole(user.id, shopId, input.role);
  });
  await services.audit.record({ shopId, actor, action: 'team.user_added', target: `user:${user.id}`, details: { role: input.role } });
  const language = input.language ?? mainLanguage(shop);
  sendSignInMail(services, user, await createSignInLink(services, user.id), language, { shopName: shop.name, role: input.role });
  return teamMember(services, shopId, user.id);
}

/** Changes a member's role; 409 `last_owner` when it would leave the shop without an owner. */
export async function changeTeamRole(
  services: AccountServices,
  shopId: number,
  userId: number,
  role: Role,
  actor: AuditActor,
): Promise<TeamMember> {
  const previous = await services.users.withTeamLock(shopId, async () => {
    const members = await membersOf(services, shopId);
    const current = members.find((m) => m.userId === userId);
    if (!current) throw new HttpError(404, 'No such user in this shop.');
    if (takesLastOwner(members, userId, role)) throw lastOwner();
    if (current.role !== role) await services.users.setRole(userId, shopId, role);
    return current.role;
  });
  if (previous !== role) {
    await services.audit.record({ shopId, actor, action: 'team.role_changed', target: `user:${userId}`, details: { role, previous_role: previous } });
  }
  return teamMember(services, shopId, userId);
}

/** Removes a member from the shop; 409 `last_owner` for the last owner. A user left without shops is signed out. */
export async function removeTeamMember(services: AccountServices, shopId: number, userId: number, actor: AuditActor): Promise<void> {
  const previous = await services.users.withTeamLock(shopId, async () => {
    const members = await membersOf(services, shopId);
    const current = members.find((m) => m.userId === userId);
    if (!current) throw new HttpError(404, 'No such user in this shop.');
    if (takesLastOwner(members, userId, null)) throw lastOwner();
    await services.users.removeRole(userId, shopId);
    return current.role;
  });
  const user = await services.users.get(userId);
  if (user && membershipsOf(user).length === 0) await services.sessions.revokeAll(userId);
  await services.audit.record({ shopId, actor, action: 'team.user_removed', target: `user:${userId}`, details: { previous_role: previous } });
}

const lastOwner = () => new HttpError(409, 'A shop keeps at least one owner: make another user owner first.', 'last_owner');
