// The contract of the operator's report queue (admin.ts).
import { z } from 'zod';
import { adminError, json, operatorErrors, type Endpoint } from '../http/contract.js';
import { decisionSchema, GROUNDS, listQuerySchema, REPORT_SOURCES, REPORT_STATUSES } from './schema.js';

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
  /** Issue 21: what put the review in the queue. */
  source: z.enum(REPORT_SOURCES).meta({
    description:
      '`report` (the public form), `appeal` (a complaint about a decision), `signal` (an automatic check) or `check` (the operator’s own removal through DELETE /admin/api/reviews/{id} with a statement)',
  }),
  appeal: z
    .object({ report: z.string(), role: z.enum(['writer', 'reporter']) })
    .optional()
    .meta({ description: 'a complaint: the id of the report whose decision it contests, and whose complaint it is' }),
  signal: z
    .object({
      name: z.string(),
      review_ids: z.array(z.int()),
      figures: z.record(z.string(), z.number()),
      basis: z.string().optional(),
    })
    .optional()
    .meta({
      description:
        'a signal: its name (`insider`, `burst`, `duplicate_text`, `shared_network`) and evidence (review ids and figures)',
    }),
  photo: z
    .object({ id: z.string(), url: z.string() })
    .optional()
    .meta({ description: 'issue 20: the one photo reported (redact it with `photo`: its id), and its address' }),
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
    description:
      'Issue 21: `statement` (the statement of reasons) is required for `remove` and `redact` and e-mailed to the writer with a complaint link; a reporter who left an address is told the outcome. A complaint (`source: "appeal"`) is answered with `uphold` or `reverse`, a signal (`source: "signal"`) with `dismiss`; an action that does not fit the source is a 422.',
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
