// The worker's side of the queued feed rebuilds (rebuild-queue.ts): the `feeds.google.rebuild` drain takes the shops
// whose debounce is over and builds each one's feed with the fetch's own build and lock (google-build.ts), so that
// Merchant Center's next fetch finds the file built without the removed review. Nothing here runs on a timetable
// whose cost grows with history: the periodic run reads the small queue (the work in progress) and finds nothing
// unless a change was queued.
import { randomUUID } from 'node:crypto';
import type { Services } from '../services.js';
import { addDays } from '../time.js';
import { type FeedRebuild, isRunningKey } from './rebuild-queue.js';
import type { TakenItem } from '../queue/work-queue.js';

/** What a queued rebuild of the Google feed uses of the services. */
type FeedRebuildDeps = Pick<Services, 'feedKeys' | 'feedRebuilds' | 'googleFeeds' | 'log' | 'now' | 'webshops'>;

export const FEED_REBUILD_JOB = 'feeds.google.rebuild';
/**
 * The drain runs this often: the queued items are due a debounce (a minute) after the change, and a trigger at the
 * change would find nothing due; a run reads one small collection. A change is built within about two minutes.
 */
const SWEEP_MS = 60_000;
/** Shops built per run at most: each build reads all of a shop's published reviews. */
const BATCH = 10;
/** A rebuild that failed this often is given up (logged): the next fetch still starts one. */
const ATTEMPTS = 10;

export function defineFeedJobs(
  services: Pick<Services, 'feedKeys' | 'feedRebuilds' | 'googleFeeds' | 'log' | 'now' | 'scheduler' | 'webshops'>,
): void {
  services.scheduler.define(FEED_REBUILD_JOB, () => drainFeedRebuilds(services), SWEEP_MS);
}

/** Builds the feed of every shop whose rebuild is due; what a run does not get to stays due. */
export async function drainFeedRebuilds(services: FeedRebuildDeps): Promise<void> {
  const { feedRebuilds } = services;
  const holder = randomUUID();
  try {
    for (;;) {
      const items = await feedRebuilds.take(holder, BATCH);
      if (items.length === 0) break;
      // A shop's change and its `:running` item may both be due: one build serves both.
      const shops = new Map<number, TakenItem<FeedRebuild>[]>();
      for (const item of items) shops.set(item.payload.shopId, [...(shops.get(item.payload.shopId) ?? []), item]);
      for (const [shopId, taken] of shops) await rebuildShop(services, holder, shopId, taken);
    }
  } finally {
    await feedRebuilds.release(holder);
  }
  await feedRebuilds.prune(addDays(services.now(), -1));
}

async function rebuildShop(
  services: FeedRebuildDeps,
  holder: string,
  shopId: number,
  taken: TakenItem<FeedRebuild>[],
): Promise<void> {
  const { feedRebuilds } = services;
  for (const item of taken) await feedRebuilds.start(holder, item);
  const attempts = taken.find((i) => isRunningKey(i._id))?.attempts ?? (await feedRebuilds.attempts(shopId));
  try {
    const shop = await services.webshops.get(shopId);
    const key = await services.feedKeys.find(shopId);
    // A shop deleted, or its key record gone: no feed to rebuild.
    if (shop && key) await services.googleFeeds.refresh(shop, key);
  } catch (err) {
    const at = attempts + 1 >= ATTEMPTS ? undefined : new Date(services.now().getTime() + (attempts + 1) * 60_000);
    services.log.error({ err, shopId, givenUp: !at }, 'google feed rebuild failed');
    await feedRebuilds.failed(holder, shopId, attempts, at, String(err));
    return;
  }
  await feedRebuilds.done(holder, shopId);
}
