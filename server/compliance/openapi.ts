// The contract of the compliance report (admin.ts).
import { z } from 'zod';
import { adminError, type Endpoint } from '../http/contract.js';
import { complianceQuerySchema } from './admin.js';

const counts = z.record(z.string(), z.int());
const perGroundAndStar = z.record(z.string(), counts).meta({ description: 'ground → star (1–5) → count' });

const shopCompliance = z.object({
  webshop_id: z.int(),
  invitations: z.object({ queued: z.int(), sent: z.int() }),
  received: z.object({ by_origin: counts, by_star: counts }),
  published: z.object({ by_star: counts.meta({ description: 'first publications, star → count' }) }),
  removed: perGroundAndStar,
  redacted: perGroundAndStar,
  restored: perGroundAndStar.meta({ description: 'removals reversed after a complaint: ground → star → count' }),
  time_to_publication: counts.meta({
    description:
      'from receipt to first publication, fixed buckets: under_1h, under_1d, under_3d, under_7d, under_30d, over_30d (imports not counted)',
  }),
  signals: z.record(z.string(), counts).meta({ description: 'kind → raised, kept, removed, redacted, dismissed' }),
  reports: counts.meta({ description: 'received, kept, removed, redacted, dismissed' }),
  checks: counts.meta({ description: 'the operator’s own removals (DELETE with a statement): kept, removed, …' }),
  complaints: counts.meta({ description: 'received, upheld, reversed' }),
});

export const complianceEndpoints: Endpoint[] = [
  {
    method: 'get',
    path: '/admin/api/compliance',
    family: 'operator',
    auth: 'operatorToken',
    summary: 'The compliance report per shop over a range of days (at most 366), from counters kept as things happen',
    description:
      'Issue 21. Days are UTC, `from` and `to` included. Without `webshop`, every shop with anything counted in the range. ' +
      '`format=csv`: UTF-8 with a byte-order mark, header `webshop_id,section,figure,star,count`, a cell a spreadsheet ' +
      "would take for a formula prefixed with `'`.",
    query: complianceQuerySchema,
    answers: {
      200: {
        description: 'the report',
        schema: z.object({ from: z.string(), to: z.string(), webshops: z.array(shopCompliance) }),
        alternatives: { 'text/csv; charset=utf-8': z.string() },
      },
      401: adminError('no or wrong operator token'),
      404: adminError('no such webshop'),
      422: adminError('a date is not YYYY-MM-DD, `to` is before `from`, or the range is longer than 366 days'),
    },
  },
];
