// The e-mail that tells a writer their review was removed, and on which ground (`moderation.notices` drain). The
// queue is small (a notice is deleted once sent), so each run reads it whole; retries follow the mail schedule.
// service.ts queues a notice and triggers the job.
import { JOB } from '../jobs/names.js';
import { policyPageUrl } from '../links.js';
import type { Services } from '../services.js';
import { decisionMail } from '../mail/templates.js';
import { fill, MAIL_STRINGS } from '../mail/strings.js';
import { addDays } from '../time.js';
import { appealDigest, newAppealToken } from './appeal-token.js';
import { NOTICE_STRINGS } from './notice-strings.js';
import { APPEAL_DAYS, type RemovalNotice } from './store.js';

const HOUR_MS = 3_600_000;
import { afterFailure, classifySendError, describeSendError, isServerFailure, mailSweepMs } from '../mail/retry.js';
import { REPORT_STRINGS } from './strings.js';

const BATCH = 100;

/** One per review, never random: a second copy after a crash carries the same Message-ID. */
export const noticeMessageId = (reviewId: number, domain: string) =>
  `<review.${reviewId}.removed@${domain.toLowerCase()}>`;

export function defineModerationJobs(services: Services): void {
  services.scheduler.define(JOB.removalNotice, () => drainNotices(services), mailSweepMs(services.config));
  // Texts kept for a complaint and complaint links live six months; their collections hold nothing older.
  services.scheduler.define(
    'moderation.expired',
    async () => {
      await services.moderation.dropExpired(services.now());
    },
    HOUR_MS,
  );
}

async function drainNotices(services: Services): Promise<void> {
  const { moderation, config } = services;
  const due = await moderation.dueNotices(services.now(), BATCH);
  for (const notice of due) {
    // The first attempt takes a place of the day's e-mails to the address (typed addresses: 3 a day); retries don't.
    const first = notice.attempts === 0;
    if (!(await moderation.claimNotice(notice, services.now(), config.scheduler.lockLifetimeMs))) continue;
    if (first && !(await services.recipientLimit.take(notice.to))) {
      await moderation.noticeFailed(notice._id, { giveUp: 'limit' }, 'daily limit of e-mails to this address');
      await services.audit.record({
        shopId: notice.shopId,
        actor: { kind: 'system' },
        action: 'report.notice_limited',
        target: `review:${notice.reviewId}`,
        details: { kind: notice.kind ?? 'removed', role: notice.role ?? 'writer' },
      });
      continue;
    }
    const shop = await services.webshops.get(notice.shopId);
    const mail = noticeMail(services, notice, shop?.name ?? '', await appealLink(services, notice));
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
    await services.audit.record({
      shopId: notice.shopId,
      actor: { kind: 'system' },
      action: 'report.notice_sent',
      target: `review:${notice.reviewId}`,
      details: { kind: notice.kind ?? 'removed', role: notice.role ?? 'writer' },
    });
  }
}

/**
 * A decision's e-mail carries a new complaint link, made as it is sent (the queue holds no secret); answers to
 * complaints carry none. Each attempt makes its own: a link in an e-mail that never arrived opens nothing more.
 */
async function appealLink(services: Services, notice: RemovalNotice): Promise<{ url: string; until: Date } | null> {
  const kind = notice.kind ?? 'removed';
  if (!notice.report || kind === 'appeal_upheld' || kind === 'appeal_reversed') return null;
  const token = newAppealToken();
  const until = addDays(services.now(), APPEAL_DAYS);
  await services.moderation.addAppealToken({
    _id: appealDigest(token),
    report: notice.report,
    role: notice.role ?? 'writer',
    reviewId: notice.reviewId,
    shopId: notice.shopId,
    email: notice.to,
    language: notice.language,
    expires: until,
  });
  return { url: `${services.config.baseUrl}/appeal/${token}`, until };
}

function noticeMail(
  services: Services,
  notice: RemovalNotice,
  shopName: string,
  link: { url: string; until: Date } | null,
) {
  const { config } = services;
  const n = NOTICE_STRINGS[notice.language];
  const kind = notice.kind ?? 'removed';
  const values = { shop: shopName, brand: config.brandName };
  const ground = notice.ground
    ? fill(n.ground, { ground: REPORT_STRINGS[notice.language].grounds[notice.ground] })
    : '';
  const until = link
    ? new Intl.DateTimeFormat(notice.language, { dateStyle: 'long', timeZone: 'UTC' }).format(link.until)
    : '';
  const contest = link
    ? { after: [fill(n.contest, { until })], button: { label: n.contestButton, url: link.url } }
    : null;
  const common = { language: notice.language, shopName, brandName: config.brandName };
  const policy = fill(n.person, values);
  if (kind === 'appeal_upheld' || kind === 'appeal_reversed') {
    return decisionMail({
      ...common,
      subject: fill(n.answerSubject, values),
      body: [n.answer[kind], policy],
      quotes: [],
      after: [],
    });
  }
  if ((notice.role ?? 'writer') === 'reporter') {
    // The outcome only: never the operator's note or the statement written for the writer.
    const outcome = kind === 'kept' || kind === 'removed' || kind === 'redacted' ? kind : 'kept';
    return decisionMail({
      ...common,
      subject: fill(n.reporterSubject, values),
      body: [fill(n.reporterOutcome[outcome], values), ...(ground && outcome !== 'kept' ? [ground] : []), policy],
      quotes: [],
      ...(contest?.button ? { button: contest.button } : {}),
      after: contest?.after ?? [],
    });
  }
  const decided = kind === 'redacted' ? 'redacted' : 'removed';
  return decisionMail({
    ...common,
    subject: fill(n.writerSubject[decided], values),
    body: [fill(n.writerDecided[decided], values), ground, n.trigger[notice.trigger ?? 'report'], policy].filter(
      Boolean,
    ),
    quotes: notice.statement ? [{ label: n.statement, text: notice.statement }] : [],
    ...(contest?.button ? { button: contest.button } : {}),
    after: [
      ...(contest?.after ?? []),
      `${MAIL_STRINGS[notice.language].removedPolicy}: ${policyPageUrl(config.baseUrl, notice.shopId)}`,
    ],
  });
}
