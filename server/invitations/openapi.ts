// The contract of the classic invitation endpoints (routes.ts). Add invitation's fields are read by hand for
// compatibility (input.ts: strings, PHP bracket arrays, lenient order data), so their schema describes, not parses.
import { z } from 'zod';
import {
  classicAnswers,
  classicSuccess,
  credentials,
  ids,
  json,
  operatorErrors,
  type Endpoint,
} from '../http/contract.js';
import { historyQuery } from './admin.js';

const invitationInput = z
  .object({
    email: z.string(),
    order: z.string().optional(),
    language: z.string().meta({ description: 'ISO 639-1 (other forms are mapped)' }).optional(),
    delay: z.int().meta({ description: 'days' }).optional(),
    customer_name: z.string().optional(),
    phone_numbers: z.array(z.string()).meta({ description: 'accepted and discarded' }).optional(),
    order_total: z.string().meta({ description: 'accepted and discarded' }).optional(),
    order_data: z
      .string()
      .meta({ description: 'JSON: {"products":[{"id","name","url","image_url","sku","gtin"}]}' })
      .optional(),
    client: z.string().optional(),
    platform_version: z.string().optional(),
    plugin_version: z.string().optional(),
    max_invitations_per_email: z.int().optional(),
  })
  .meta({ id: 'InvitationInput' });

/** An invitation as invitations.json lists it. */
export const listedInvitation = z
  .object({
    email: z.string(),
    order: z.string(),
    delay: z.int(),
    datetimes: z.object({ created: z.string(), scheduled: z.string(), sent: z.union([z.string(), z.literal(false)]) }),
  })
  .meta({ id: 'Invitation' });

/** One event of an invitation's history (admin.ts historyOf). */
export const historyEvent = z.object({
  event: z.enum([
    'queued',
    'sent',
    'failed',
    'not_sent',
    'reminder_due',
    'reminder_sent',
    'reminder_skipped',
    'reminder_failed',
  ]),
  at: z.string().meta({ description: 'ISO 8601' }),
  message_id: z.string().optional(),
  reason: z.string().optional(),
});

export const invitationEndpoints: Endpoint[] = [
  {
    method: 'post',
    path: '/api/1.0/invitations.json',
    family: 'classic',
    summary: 'Add invitation',
    query: credentials.extend({
      max_invitations_per_email: z.int().meta({ description: 'at most this many invitations per address' }).optional(),
    }),
    body: {
      schema: invitationInput,
      mediaTypes: ['application/x-www-form-urlencoded', 'multipart/form-data'],
      optional: true,
    },
    answers: classicAnswers(z.object({ status: z.literal('success'), message: z.string() })),
  },
  {
    method: 'get',
    path: '/api/1.0/invitations.json',
    family: 'classic',
    summary: 'List invitations',
    query: credentials.extend({
      offset: z.int().meta({ description: 'newest invitations skipped (default 0)' }).optional(),
      order: z.int().meta({ description: 'maximum returned, 1–100 (default 10)' }).optional(),
      limit: z.int().meta({ description: 'synonym of order' }).optional(),
    }),
    answers: classicAnswers(
      classicSuccess('Invitations successfully retrieved!', { invitations: z.array(listedInvitation), total: z.int() }),
    ),
  },
  {
    method: 'get',
    path: '/admin/api/webshops/{id}/invitations',
    family: 'operator',
    auth: 'operatorToken',
    summary: "A shop's invitations to an address and/or for an order, each with its history (e-mail, reminder)",
    params: ids('id'),
    query: historyQuery,
    answers: {
      200: json(
        z.object({
          invitations: z.array(
            z.object({
              id: z.string(),
              email: z.string(),
              order: z.string(),
              language: z.string(),
              created: z.string().meta({ description: 'ISO 8601' }),
              scheduled: z.string().meta({ description: 'ISO 8601' }),
              history: z.array(historyEvent),
            }),
          ),
        }),
      ),
      ...operatorErrors,
    },
  },
];
