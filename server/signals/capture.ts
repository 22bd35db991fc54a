// Where a review is submitted (the review page's form, the pop-up's review API, the experience form), what
// `shared_network` needs is noted after the review is written: the HMAC of the sender's network and the browser
// family. The address itself is never stored; the check runs in the worker (jobs.ts).
import type { Services } from '../services.js';
import type { Review } from '../reviews/model.js';
import { browserFamily, networkKey, networkOf } from './network.js';

export async function noteSubmission(
  services: Services,
  review: Pick<Review, 'id' | 'shopId'>,
  ip: string,
  userAgent: string | undefined,
): Promise<void> {
  if (!services.config.signals.includes('shared_network')) return;
  const network = networkOf(ip);
  if (!network) return;
  const note = { key: networkKey(services.config.signalKey, review.shopId, network), family: browserFamily(userAgent) };
  try {
    await services.signals.queueNetwork(review.id, review.shopId, note);
  } catch (err) {
    // The review is written; a check that cannot be queued must not turn its answer into an error.
    services.log.warn({ err, review: review.id }, 'signals: network note not queued');
  }
}
