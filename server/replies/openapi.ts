// The contract of the classic review reply endpoint (routes.ts); the body is the schema it validates with.
import { z } from 'zod';
import { classicError, credentials, json, type Endpoint } from '../http/contract.js';
import { replyRequestSchema } from './reply.js';

export const replyEndpoints: Endpoint[] = [
  {
    method: 'post',
    path: '/api/1.0/review_replies.json',
    family: 'classic',
    summary: 'Add review reply (for shops granted reply access)',
    query: credentials,
    body: { schema: replyRequestSchema },
    answers: {
      200: json(z.object({ status: z.literal('success'), message: z.literal('Reply successfully added') })),
      400: classicError('bad request'),
      401: classicError('wrong credentials or no reply access'),
      404: classicError('no such review in this shop'),
    },
  },
];
