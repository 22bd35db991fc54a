// The contract of the operator's audit trail (admin.ts).
import { z } from 'zod';
import { adminError, json, type Endpoint } from '../http/contract.js';
import { auditQuerySchema } from './admin.js';

/** An entry as the operator sees it. */
export const operatorAuditEntry = z.object({
  id: z.string(),
  at: z.string().meta({ description: 'ISO 8601' }),
  webshop_id: z.int().nullable(),
  actor: z.object({ kind: z.enum(['operator', 'user', 'writer', 'system']), id: z.string().optional() }),
  action: z.string().meta({ description: 'e.g. report.removed, review.deleted_by_writer' }),
  target: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
});

export const auditEndpoints: Endpoint[] = [
  {
    method: 'get',
    path: '/admin/api/audit',
    family: 'operator',
    auth: 'operatorToken',
    summary:
      'The audit trail (moderation decisions, reports, writers’ deletions, operator and merchant actions), newest first; `before` pages back',
    query: auditQuerySchema,
    answers: {
      200: json(z.object({ entries: z.array(operatorAuditEntry) })),
      400: adminError('invalid query parameter'),
      401: adminError('no or wrong operator token'),
    },
  },
];
