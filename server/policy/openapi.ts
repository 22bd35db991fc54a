// The contract of the operator's review policy texts (admin.ts).
import { z } from 'zod';
import { json, operatorErrors, type Endpoint } from '../http/contract.js';
import { textSchema } from './admin.js';
import { POLICY_LANGUAGES } from './strings.js';

/** The review policy page's service-wide texts in one language. */
const policyTextSchema = z.object({
  lang: z.string(),
  custom: z.boolean().meta({ description: 'false while the defaults are in force' }),
  checks: z.string(),
  publication: z.string(),
  reporting: z.string(),
});
export type PolicyText = z.infer<typeof policyTextSchema>;

const policy = {
  family: 'operator',
  auth: 'operatorToken',
  path: '/admin/api/policy-text/{lang}',
  params: z.object({ lang: z.enum(POLICY_LANGUAGES) }),
} as const;

export const policyEndpoints: Endpoint[] = [
  {
    ...policy,
    method: 'get',
    summary: "The review policy page's service-wide texts in a language (the operator's, or the defaults)",
    answers: { 200: json(policyTextSchema), ...operatorErrors },
  },
  {
    ...policy,
    method: 'put',
    summary:
      "Replace the review policy page's service-wide texts in a language (plain text; blank lines make paragraphs; audited)",
    body: { schema: textSchema },
    answers: { 200: json(policyTextSchema), ...operatorErrors },
  },
  {
    ...policy,
    method: 'delete',
    summary: 'Back to the default texts of the review policy page in a language (audited)',
    answers: { 204: { description: 'reset' }, ...operatorErrors },
  },
];
