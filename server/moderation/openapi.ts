// The contract of the operator's report queue (admin.ts).
import { z } from 'zod';
import { adminError, json, operatorErrors, type Endpoint } from '../http/contract.js';
import { decisionSchema, GROUNDS, listQuerySchema, REPORT_STATUSES } from './schema.js';

/** A report about a review as the operator sees it. */
export const reportSchema = z.object({
  id: z.string(),
  review_id: z.int(),
  webshop_id: z.int(),
  ground: z.enum(GROUNDS),
  text: z.string().meta({ description: 'the reporter’s details; never e-mailed to anyone' }),
  email: z.string().nullable(),
  created: z.string().meta({ description: 'ISO 8601' }),
  status: z.enum(REPORT_STATUSES),
  decision: z
    .record(z.string(), z.unknown())
    .nullable()
    .meta({ description: 'action, ground, note, at, by (and redactedChars for redactions)' }),
});

const operator = { family: 'operator', auth: 'operatorToken' } as const;

export const moderationEndpoints: Endpoint[] = [
  {
    ...operator,
    method: 'get',
    path: '/admin/api/reports',
    summary: 'The report queue: reports about reviews from the public report form, oldest first',
    query: listQuerySchema,
    answers: {
      200: json(
        z.object({
          reports: z.array(reportSchema),
          next_after: z
            .string()
            .nullable()
            .meta({ description: 'pass as `after` for the next page; null on the last' }),
        }),
      ),
      400: adminError('invalid query parameter'),
      401: adminError('no or wrong operator token'),
    },
  },
  {
    ...operator,
    method: 'post',
    path: '/admin/api/reports/{id}/decision',
    summary:
      'Decide on an open report: keep the review, remove it (soft delete; the writer is e-mailed the ground) or redact a passage (every occurrence in the comment, product texts and reply) and keep it',
    params: z.object({ id: z.string().meta({ description: 'report id' }) }),
    body: { schema: decisionSchema },
    answers: {
      200: json(
        z.object({
          report: reportSchema,
          review: z.object({ id: z.int(), deleted: z.boolean(), version: z.int() }).partial().nullable(),
        }),
      ),
      409: adminError('the report was decided already, or the review was deleted (only keep is possible)'),
      ...operatorErrors,
    },
  },
];
