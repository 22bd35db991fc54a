// The contract of the operator's erasure of a customer's personal data (admin.ts).
import { z } from 'zod';
import { json, operatorErrors, type Endpoint } from '../http/contract.js';
import { erasureQuery } from './admin.js';

/** What was erased (also what the audit trail records). */
export const erasureCounts = z.object({
  reviews_anonymised: z.int(),
  invitations_deleted: z.int(),
  consents_deleted: z.int(),
  popup_tokens_deleted: z.int(),
  webhook_deliveries_deleted: z.int(),
});

export const customerEndpoints: Endpoint[] = [
  {
    method: 'delete',
    path: '/admin/api/customers',
    family: 'operator',
    auth: 'operatorToken',
    summary: "Erase a customer's personal data (GDPR; the counts are audited, never the address)",
    query: erasureQuery,
    answers: { 200: json(erasureCounts), ...operatorErrors },
  },
];
