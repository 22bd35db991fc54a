// The e-mail that tells a writer their review was removed, and on which ground: queued in the mail outbox by
// service.ts when the removal is decided, composed here when the outbox's drain sends it. A notice given up (the
// address refused for good, or the retries used up) leaves an entry in the audit trail: the writer was not told.
import { policyPageUrl } from '../links.js';
import type { OutboxKind, OutboxMailOf } from '../mail/outbox-mail.js';
import { removalMail } from '../mail/templates.js';
import type { Services } from '../services.js';
import { REPORT_STRINGS } from './strings.js';

/** One per review, never random: its Message-ID (`<review.{id}.removed@…>`) is the same for every attempt. */
export const removalNoticeKey = (reviewId: number) => `review.${reviewId}.removed`;

export function removalNoticeKind(
  services: Pick<Services, 'config' | 'webshops' | 'audit'>,
): OutboxKind<OutboxMailOf<'removal'>> {
  const { config } = services;
  return {
    compose: async (notice) => {
      const shop = await services.webshops.get(notice.shopId);
      const mail = removalMail({
        language: notice.language,
        shopName: shop?.name ?? '',
        brandName: config.brandName,
        ground: REPORT_STRINGS[notice.language].grounds[notice.ground],
        policyUrl: policyPageUrl(config.baseUrl, notice.shopId),
      });
      return { fromName: shop?.name || config.brandName, to: notice.to, ...mail };
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
  };
}
