// The spec's Domain record, as a pure function of a webshop and its ratings summary.
import type { RatingsSummary } from '../reviews/rating.js';
import { publicPageUrl } from '../links.js';
import { formatTimestamp } from '../time.js';
import type { Webshop } from '../webshops/model.js';
import type { domainRecordSchema } from './openapi.js';
import type { z } from 'zod';

type DomainRecord = z.infer<typeof domainRecordSchema>;

interface DomainRecordOptions {
  baseUrl: string;
  approvedDate: boolean;
  partnerAssurances: boolean;
}

export function toDomainRecord(shop: Webshop, summary: RatingsSummary, options: DomainRecordOptions): DomainRecord {
  const record: DomainRecord = {
    id: shop.id,
    name: shop.name,
    url: shop.url,
    rating: summary.rating_average,
    rating_count: summary.amount,
    icon: shop.logo,
    page: publicPageUrl(options.baseUrl, shop.id),
    hero_color: shop.hero_color,
    hero_image: shop.hero_image,
    created: formatTimestamp(shop.created),
  };
  if (options.approvedDate && shop.approved_date) record.approved_date = shop.approved_date;
  if (options.partnerAssurances) record.partner_assurances = { ...shop.partner_assurances };
  return record;
}

/** Optional flags are on only for `1`, `true` or `yes` (any case); anything else, including arrays, is off. */
export function isTrueFlag(value: unknown): boolean {
  return typeof value === 'string' && ['1', 'true', 'yes'].includes(value.trim().toLowerCase());
}
