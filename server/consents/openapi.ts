// The contract of the order consent check (routes.ts): its answer is the bare object, errors with HTTP statuses.
import { z } from 'zod';
import { classicError, credentials, json, type Endpoint } from '../http/contract.js';

export const orderPermission = z.object({ has_consent: z.boolean() });

export const consentEndpoints: Endpoint[] = [
  {
    method: 'get',
    path: '/api/2.0/order_permissions.json',
    family: 'classic',
    summary: 'Check order consent (Privacy First)',
    query: credentials.extend({ orderNumber: z.string().meta({ description: 'order number' }) }),
    answers: {
      200: json(orderPermission),
      400: classicError('missing variables'),
      401: classicError('wrong credentials'),
    },
  },
];
