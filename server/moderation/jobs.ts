// The e-mails of moderation decisions (issue 21): the writer told of a removal or redaction with the statement of
// reasons, the reporter told the outcome, a complainant told the answer. Queued in the mail outbox by service.ts when
// the decision is made (the per-address limit is taken then), composed here when the outbox's drain sends them: the
// complaint link is made at that moment, and only its digest is stored. An e-mail given up (the address refused for
// good, or the retries used up) leaves an entry in the audit trail: the person was not told.
import { policyPageUrl } from '../links.js';
import type { OutboxKind } from '../mail/outbox-mail.js';
import type { NoticeMailOf as OutboxMailOf } from './notice-mail.js';
import { decisionMail } from '../mail/templates.js';
import { fill, MAIL_STRINGS } from '../mail/strings.js';
import type { Services } from '../services.js';
import { addDays } from '../time.js';
import { appealDigest, newAppealToken } from './appeal-token.js';
import { NOTICE_STRINGS } from './notice-strings.js';
import { APPEAL_DAYS } from './store.js';
import { REPORT_STRINGS } from './strings.js';
import { removeExpiredPhotos } from './service.js';
import type { ModerationDeps } from './service.js';

/**
 * The key of a removal notice queued by the version before issue 21's decisions (kind `removal`), one per review:
 * its Message-ID (`<review.{id}.removed@…>`) is the same for every attempt.
 */
export const removalNoticeKey = (reviewId: number) => `review.${reviewId}.removed`;

/**
 * The writer's removal e-mail of one decision (`<report.{decision}.removed@…>`), the same for every attempt. Keyed by
 * the decision, not the review: a review removed, restored after a complaint and removed again gets both e-mails
 * (one key per review dropped the second as a repeat while the first was queued, and reused its Message-ID).
 */
export const decisionRemovalKey = (decisionId: string) => `report.${decisionId}.removed`;

const HOUR_MS = 3_600_000;

type NoticeServices = Pick<Services, 'config' | 'webshops' | 'audit' | 'moderation' | 'now'>;
type DecisionNotice = OutboxMailOf<'decision'>;

export function defineModerationJobs(services: ModerationDeps): void {
  // Texts kept for a complaint and complaint links live six months; their collections hold nothing older. Photos a
  // redaction took go with their kept texts: removed from their review first (which queues their files' deletion).
  services.scheduler.define(
    'moderation.expired',
    async () => {
      await removeExpiredPhotos(services, services.now());
      await services.moderation.dropExpired(services.now());
    },
    HOUR_MS,
  );
}

/** A removal notice queued by the version before issue 21: sent as the writer's notice it was, without a link. */
const fromRemoval = (n: OutboxMailOf<'removal'>): DecisionNotice => ({
  ...n,
  kind: 'decision',
  notice: 'removed',
  role: 'writer',
});

export function decisionNoticeKind(services: NoticeServices): OutboxKind<DecisionNotice> {
  return {
    compose: async (notice) => {
      const shop = await services.webshops.get(notice.shopId);
      const mail = noticeMail(services, notice, shop?.name ?? '', await appealLink(services, notice));
      return { fromName: shop?.name || services.config.brandName, to: notice.to, ...mail };
    },
    // An SMTP error quoting the address is stored hashed by the audit trail.
    gaveUp: async (notice, reason) => {
      await services.audit.record({
        shopId: notice.shopId,
        actor: { kind: 'system' },
        action: 'report.removal_notice_failed',
        target: `review:${notice.reviewId}`,
        details: { reason },
      });
    },
    sent: async (notice) => {
      await services.audit.record({
        shopId: notice.shopId,
        actor: { kind: 'system' },
        action: 'report.notice_sent',
        target: `review:${notice.reviewId}`,
        details: { kind: notice.notice, role: notice.role },
      });
    },
  };
}

export function removalNoticeKind(services: NoticeServices): OutboxKind<OutboxMailOf<'removal'>> {
  const decision = decisionNoticeKind(services);
  return {
    compose: (n) => decision.compose(fromRemoval(n)),
    gaveUp: (n, reason) => decision.gaveUp!(fromRemoval(n), reason),
    sent: (n) => decision.sent!(fromRemoval(n)),
  };
}

/**
 * A decision's e-mail carries a new complaint link, made as it is sent (the queue holds no secret); answers to
 * complaints carry none. Each attempt makes its own: a link in an e-mail that never arrived opens nothing more.
 */
async function appealLink(
  services: NoticeServices,
  notice: DecisionNotice,
): Promise<{ url: string; until: Date } | null> {
  const kind = notice.notice;
  if (!notice.report || kind === 'appeal_upheld' || kind === 'appeal_reversed') return null;
  const token = newAppealToken();
  const until = addDays(services.now(), APPEAL_DAYS);
  await services.moderation.addAppealToken({
    _id: appealDigest(token),
    report: notice.report,
    role: notice.role,
    reviewId: notice.reviewId,
    shopId: notice.shopId,
    email: notice.to,
    language: notice.language,
    expires: until,
  });
  return { url: `${services.config.baseUrl}/appeal/${token}`, until };
}

function noticeMail(
  services: NoticeServices,
  notice: DecisionNotice,
  shopName: string,
  link: { url: string; until: Date } | null,
) {
  const { config } = services;
  const n = NOTICE_STRINGS[notice.language];
  const kind = notice.notice;
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
  if (notice.role === 'reporter') {
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
