// The contract of fetch_domain.json (routes.ts) and of the operator's tokens for it (admin.ts).
import { z } from 'zod';
import { adminError, json, type Endpoint } from '../http/contract.js';
import { issueSchema } from './admin.js';

/** The spec's Domain record (record.ts builds it). */
export const domainRecordSchema = z
  .object({
    id: z.int(),
    name: z.string(),
    url: z.string(),
    /** 1–10 scale. */
    rating: z.number(),
    /** Published reviews. */
    rating_count: z.int(),
    icon: z.string(),
    page: z.string(),
    hero_color: z.string(),
    hero_image: z.string(),
    created: z.string(),
    approved_date: z.string().optional(),
    partner_assurances: z.record(z.string(), z.boolean()).optional(),
  })
  .meta({ id: 'DomainRecord' });

const operator = { family: 'operator', auth: 'operatorToken' } as const;
const flag = (description: string) => z.string().meta({ description }).optional();

export const domainEndpoints: Endpoint[] = [
  {
    method: 'get',
    path: '/webshops/fetch_domain.json',
    family: 'public',
    summary: 'Retrieve shops by domain (operator-issued token)',
    query: z.object({
      token: z.string().meta({ description: 'operator-issued token' }),
      url: z.string().meta({ description: 'URL whose host is matched (scheme, www., port, path and case ignored)' }),
      approved_date: flag('true/1 to include approved_date'),
      partner_assurances: flag('true/1 to include partner_assurances'),
    }),
    answers: {
      200: json(z.array(domainRecordSchema)),
      400: adminError('missing url'),
      401: adminError('missing or invalid token'),
    },
  },
  {
    ...operator,
    method: 'post',
    path: '/admin/api/tokens',
    summary: 'Issue a token for fetch_domain.json (audited, never the token)',
    body: { schema: issueSchema, optional: true },
    answers: { 201: json(z.object({ token: z.string() }), 'created'), 401: adminError('no or wrong operator token') },
  },
  {
    ...operator,
    method: 'delete',
    path: '/admin/api/tokens/{token}',
    summary: 'Revoke a token (audited, never the token)',
    params: z.object({ token: z.string() }),
    answers: {
      204: { description: 'revoked' },
      401: adminError('no or wrong operator token'),
      404: adminError('unknown token'),
    },
  },
];
