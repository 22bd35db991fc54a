// The dashboard's views (review-view.ts, invitation-view.ts) are read on a shop's first request in a process: on
// the embedded database that is a read of the whole collection, 8–11 s at 20,000 reviews on a busy machine. A
// process that serves the dashboard reads them for the shops most recently used right after it starts, so their
// merchants do not wait for it. One shop after the other, in the background: the service answers meanwhile.
import type { Logger } from '../log.js';
import type { Services } from '../services.js';

/** How many shops are read ahead: the most recently used; together they stay within the cache budget's largest entry anyway. */
const WARM_SHOPS = 10;

export async function warmDashboardViews(
  services: Pick<Services, 'invitationView' | 'reviewView' | 'users'>,
  log: Logger,
): Promise<void> {
  const started = Date.now();
  try {
    const shops = await services.users.recentlyUsedShops(WARM_SHOPS);
    await services.reviewView.warmUp(shops);
    await services.invitationView.warmUp(shops);
    log.info({ shops: shops.length, ms: Date.now() - started }, 'dashboard views read ahead');
  } catch (err) {
    // Only a head start: each shop's first request reads its views anyway (and a shutdown may have cut it short).
    log.debug({ err }, 'could not read the dashboard views ahead');
  }
}
