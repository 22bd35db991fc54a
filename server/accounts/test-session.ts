// For tests of dashboard routes: a user with a role in a shop and a live session, made through the accounts'
// own service (no HTTP sign-in), and the headers a browser on the dashboard would send: the session cookie, the
// dashboard's Origin and the CSRF token.
import type { Services } from '../services.js';
import type { Role } from './roles.js';
import { cookieName } from './rules.js';
import { startSession } from './service.js';

export interface TestSession {
  userId: number;
  sessionId: string;
  cookie: string;
  csrf: string;
  /** Send these with every request (Origin and X-CSRF-Token matter only on state-changing ones). */
  headers: Record<string, string>;
}

/** `app`: anything with the app's services (the test harness's TestApp). An existing user keeps their other roles. */
export async function signedInAgent(
  app: { services: Services },
  {
    email,
    shopId,
    role,
    userAgent = 'vitest',
  }: {
    email: string;
    shopId: number;
    role: Role;
    userAgent?: string;
    /** Not needed: the Origin the server checks is its configured BASE_URL's, whatever address it listens on. */
    baseUrl?: string;
  },
): Promise<TestSession> {
  const { services } = app;
  const user = await services.users.findOrCreate(email);
  await services.users.addMember(user.id, shopId, role, { kind: 'operator' });
  const { secret, session } = await startSession(services, user.id, userAgent);
  const cookie = `${cookieName(services.config.baseUrl)}=${secret}`;
  return {
    userId: user.id,
    sessionId: session.id,
    cookie,
    csrf: session.csrf,
    headers: { cookie, origin: new URL(services.config.baseUrl).origin, 'x-csrf-token': session.csrf },
  };
}
