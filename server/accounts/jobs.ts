// The accounts' hourly clean-up (FerretDB has no TTL indexes): sign-in links past their 15 minutes with their use
// markers, and sessions that ended. Both are scans of small collections, off the request path; an ended session is
// refused on its own read anyway, and its entry in the user's list goes the next time the list is read.
import type { Services } from '../services.js';

const HOUR_MS = 3_600_000;

export function defineAccountJobs(services: Services): void {
  services.scheduler.define(
    'accounts.cleanup',
    async () => {
      const now = services.now();
      await services.signInLinks.deleteExpired(now);
      await services.sessions.deleteEnded(now);
    },
    HOUR_MS,
  );
}
