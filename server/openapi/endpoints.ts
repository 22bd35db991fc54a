// The contract of the service's own addresses: the health check (server/routes.ts) and this document (routes.ts).
import { z } from 'zod';
import { json, type Endpoint } from '../http/contract.js';

export const serviceEndpoints: Endpoint[] = [
  {
    method: 'get',
    path: '/healthz',
    family: 'public',
    summary: 'Health: 200 when the database answers',
    answers: {
      200: json(z.object({ status: z.literal('ok') })),
      503: json(z.object({ status: z.string() }), 'database unavailable'),
    },
  },
  {
    method: 'get',
    path: '/api/openapi.json',
    family: 'public',
    summary: 'This document',
    answers: { 200: json(z.record(z.string(), z.unknown())) },
  },
];
