// The accounts' hourly clean-up (FerretDB has no TTL indexes): sign-in links past their 15 minutes with their use
// markers, sessions that ended, earlier days' counts of team invitations, and users whose removal entry is due and
// who went unused. The first three are scans of small collections, off the request path; an ended session is
// refused on its own read anyway, and its entry in the user's list goes the next time the list is read. The users
// are never scanned: only the due entries of their small removal queue are read.
import { removeUnusedUsers } from './service.js';
import type { AccountDeps } from './service.js';

const HOUR_MS = 3_600_000;

/** One run of the clean-up, at the service's clock (tests move it). */
export async function cleanUpAccounts(services: AccountDeps): Promise<void> {
  const now = services.now();
  await services.signInLinks.deleteExpired(now);
  await services.sessions.deleteEnded(now);
  await services.teamInvitations.removeEarlierDays();
  await removeUnusedUsers(services, now);
}

export function defineAccountJobs(services: AccountDeps): void {
  services.scheduler.define('accounts.cleanup', () => cleanUpAccounts(services), HOUR_MS);
}
