// The contract of the operator's review routes (admin.ts): import, read, moderate, delete.
import { z } from 'zod';
import { ids, json, operatorErrors, type Endpoint } from '../http/contract.js';
import { importSchema, patchSchema } from './admin.js';

const operator = { family: 'operator', auth: 'operatorToken', params: ids('id') } as const;
/** Every stored field of the review with its moderation state (admin.ts adminReviewView). */
const adminReview = z.record(z.string(), z.unknown());

export const reviewEndpoints: Endpoint[] = [
  {
    ...operator,
    method: 'post',
    path: '/admin/api/webshops/{id}/reviews',
    summary: 'Import a review (audited, without the name, address or text)',
    body: { schema: importSchema.meta({ id: 'ReviewImport' }) },
    answers: { 201: json(z.object({ id: z.int() }), 'created'), ...operatorErrors },
  },
  {
    ...operator,
    method: 'get',
    path: '/admin/api/reviews/{id}',
    summary: 'Read a review with its moderation state',
    answers: { 200: json(adminReview), ...operatorErrors },
  },
  {
    ...operator,
    method: 'patch',
    path: '/admin/api/reviews/{id}',
    summary: 'Moderate a review (audited: scores and flags before → after, texts only as changed with their lengths)',
    body: { schema: patchSchema },
    answers: { 200: json(adminReview), ...operatorErrors },
  },
  {
    ...operator,
    method: 'delete',
    path: '/admin/api/reviews/{id}',
    summary: 'Soft-delete a review (kept in the product feed as deleted; audited)',
    // The body is described here, not as a request body: the recorded contract of this operation (no body) stands.
    description:
      'Issue 21: an optional JSON body `{"ground": …, "statement": "…", "note": "…"}` (the grounds of the report queue; `statement` 1–5,000 characters, required with a body) makes the removal a moderation decision like the queue’s `remove`: the writer is e-mailed the ground and the statement with a complaint link (not for imported reviews or without an address), the removed text is kept six months for a complaint, and the queue holds the decision with `source: "check"`. Without a body the answer is the same 204 and the removal is still a decision: ground `other`, and the writer (same conditions) is e-mailed a generic statement saying the operator removed the review, with the complaint link (docs/decisions/integrity-delete.md). A bad body is a 422 naming the field.',
    answers: { 204: { description: 'deleted' }, ...operatorErrors },
  },
];
