// Start-up step: removal notices that a version before the mail outbox queued in `removal_notices` move to the
// outbox (server/mail/outbox-mail.ts), keeping their Message-ID, due time and failed attempts, so the outbox's drain
// sends them and nothing is sent twice: each is queued under its key before it leaves the old collection, and a
// second run (another process starting at once) finds it queued already. Notices the old code had given up are left
// out. No marker: only older versions write the old collection, so after the first run every start reads an empty
// one, and a notice an old process still queued during a rolling upgrade is moved at the next start.
import type { Services } from '../services.js';
import { removalNoticeKey } from '../moderation/jobs.js';
import type { Ground } from '../moderation/schema.js';
import type { Language } from '../languages.js';

/** A notice as the versions before the outbox stored it. */
interface LegacyNotice {
  /** `<review.{id}.removed@domain>`. */
  _id: string;
  reviewId: number;
  shopId: number;
  to: string;
  language: Language;
  ground: Ground;
  attempts: number;
  nextAttempt: Date;
  failed: boolean;
  lastError: string | null;
}

export const LEGACY_NOTICES = 'removal_notices';

/** Returns how many notices were moved to the outbox. */
export async function migrateRemovalNotices({ db, outbox }: Pick<Services, 'db' | 'outbox'>): Promise<number> {
  const legacy = db.collection<LegacyNotice>(LEGACY_NOTICES);
  let moved = 0;
  for (const notice of await legacy.find({}).toArray()) {
    if (!notice.failed) {
      const { reviewId, shopId, to, language, ground } = notice;
      const queued = await outbox.enqueue(
        removalNoticeKey(reviewId),
        { kind: 'removal', reviewId, shopId, to, language, ground },
        notice.nextAttempt,
        { attempts: notice.attempts, lastError: notice.lastError },
      );
      if (queued) moved++;
    }
    await legacy.deleteOne({ _id: notice._id });
  }
  return moved;
}
