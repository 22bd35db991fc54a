// The contract of webshop.json (routes.ts) and of the operator's webshop routes (admin.ts).
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
import { createSchema, patchSchema } from './admin.js';

/** webshop.json's `data`: every field always there, empty strings rather than missing keys. */
export const webshopDetails = z
  .object({
    name: z.string(),
    address: z.object({
      street: z.string(),
      housenumber: z.string(),
      postalcode: z.string(),
      city: z.string(),
      country: z.string(),
    }),
    logo: z.string(),
    languages: z.array(
      z.object({ name: z.string(), url: z.string(), iso: z.string(), all: z.boolean(), main: z.boolean() }),
    ),
  })
  .meta({ id: 'WebshopDetails' });

const adminWebshop = z
  .record(z.string(), z.unknown())
  .meta({ id: 'AdminWebshop', description: 'every stored setting, with id and code' });
const operator = { family: 'operator', auth: 'operatorToken' } as const;

export const webshopEndpoints: Endpoint[] = [
  {
    method: 'get',
    path: '/api/1.0/webshop.json',
    family: 'classic',
    summary: 'Webshop details',
    query: credentials,
    answers: classicAnswers(classicSuccess('Webshop details successfully retrieved!', { data: webshopDetails })),
  },
  {
    ...operator,
    method: 'post',
    path: '/admin/api/webshops',
    summary: 'Create a webshop (audited)',
    body: { schema: createSchema },
    answers: { 201: json(adminWebshop, 'created, with id and code'), ...operatorErrors },
  },
  {
    ...operator,
    method: 'get',
    path: '/admin/api/webshops/{id}',
    summary: 'Read a webshop',
    params: ids('id'),
    answers: { 200: json(adminWebshop), ...operatorErrors },
  },
  {
    ...operator,
    method: 'patch',
    path: '/admin/api/webshops/{id}',
    summary: 'Change stored settings (audited: values before → after, texts only as changed with their lengths)',
    params: ids('id'),
    body: { schema: patchSchema.meta({ id: 'WebshopSettings' }) },
    answers: { 200: json(adminWebshop), ...operatorErrors },
  },
  {
    ...operator,
    method: 'post',
    path: '/admin/api/webshops/{id}/code',
    summary: 'Rotate the API code (the old one stops working at once; audited, never the code)',
    params: ids('id'),
    answers: { 200: json(z.object({ id: z.int(), code: z.string() })), ...operatorErrors },
  },
];
