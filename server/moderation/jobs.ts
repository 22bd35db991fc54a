// The e-mail that tells a writer their review was removed, and on which ground (`moderation.notices` drain). The
// queue is small (a notice is deleted once sent), so each run reads it whole; retries follow the mail schedule.
// service.ts queues a notice and triggers the job.
import { JOB } from '../jobs/names.js';
import { policyPageUrl } from '../links.js';
import type { Services } from '../services.js';
import { removalMail } from '../mail/templates.js';
import { afterFailure, classifySendError, describeSendError, isServerFailure, mailSweepMs } from '../mail/retry.js';
import { REPORT_STRINGS } from './strings.js';

const BATCH = 100;

/** One per review, never random: a second copy after a crash carries the same Message-ID. */
export const noticeMessageId = (reviewId: number, domain: string) =>
  `<review.${reviewId}.removed@${domain.toLowerCase()}>`;

export function defineModerationJobs(services: Services): void {
  services.scheduler.define(JOB.removalNotice, () => drainNotices(services), mailSweepMs(services.config));
}

async function drainNotices(services: Services): Promise<void> {
  const { moderation, config } = services;
  const due = await moderation.dueNotices(services.now(), BATCH);
  for (const notice of due) {
    if (!(await moderation.claimNotice(notice, services.now(), config.scheduler.lockLifetimeMs))) continue;
    const shop = await services.webshops.get(notice.shopId);
    const mail = removalMail({
      language: notice.language,
      shopName: shop?.name ?? '',
      brandName: config.brandName,
      ground: REPORT_STRINGS[notice.language].grounds[notice.ground],
      policyUrl: policyPageUrl(config.baseUrl, notice.shopId),
    });
    try {
      await services.mailer.send({
        fromName: shop?.name || config.brandName,
        to: notice.to,
        ...mail,
        messageId: notice._id,
      });
    } catch (err) {
      const next = afterFailure(
        notice.attempts + 1,
        classifySendError(err),
        config.mail.retryScheduleMs,
        services.now(),
      );
      await moderation.noticeFailed(notice._id, next, describeSendError(err));
      // Given up: the trail says the writer was not told (an SMTP error quoting the address is stored hashed).
      if ('giveUp' in next) {
        await services.audit.record({
          shopId: notice.shopId,
          actor: { kind: 'system' },
          action: 'report.removal_notice_failed',
          target: `review:${notice.reviewId}`,
          details: { reason: `${next.giveUp}: ${describeSendError(err)}` },
        });
      }
      if (isServerFailure(err)) return;
      continue;
    }
    await moderation.noticeSent(notice._id);
  }
}
