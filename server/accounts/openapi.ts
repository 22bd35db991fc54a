// The contract of the accounts' routes (routes.ts, admin.ts): sign-in, sessions, teams. Request bodies are the
// schemas input.ts validates with; the answers' schemas give routes.ts and the dashboard their types.
import { z } from 'zod';
import { adminError as error, empty, html, ids, json, type Endpoint } from '../http/contract.js';
import { addUserSchema, patchUserSchema, signInLinkSchema } from './input.js';
import { INVITATIONS_PER_ADDRESS_PER_DAY, INVITATIONS_PER_SHOP_PER_DAY } from './invitation-limit-store.js';
import { ROLES } from './roles.js';

const role = z.enum(ROLES);
const actor = z.object({
  kind: z.enum(['user', 'operator', 'system', 'writer']),
  id: z.string().meta({ description: 'the user’s id, for kind user' }).optional(),
});

/** A member of a shop's team as the team (and the operator) see them. */
const teamUserSchema = z.object({
  id: z.int(),
  email: z.string().meta({ description: 'when adding: the address as typed, whether or not it was known' }),
  role,
  added_at: z.string().nullable().meta({ description: 'when they were added to this shop (ISO 8601)' }),
  added_by: actor.nullable().meta({ description: 'who added them (null: added before this was recorded)' }),
  signed_in_since_added: z.boolean().meta({
    description:
      'whether they signed in since being added to this shop (false: a pending invitation); nothing of other shops',
  }),
  shop_id: z.int(),
});
export type TeamUser = z.infer<typeof teamUserSchema>;
const team = z.object({ users: z.array(teamUserSchema) });

/** The signed-in user, their shops and the CSRF token. */
const meSchema = z.object({
  user: z.object({ id: z.int(), email: z.string() }),
  shops: z.array(z.object({ id: z.int(), name: z.string(), role })),
  csrf_token: z.string().meta({ description: 'send as X-CSRF-Token on POST, PUT, PATCH and DELETE' }),
  language: z.null().meta({ description: 'the dashboard chooses from the browser' }),
});
export type Me = z.infer<typeof meSchema>;

const sessionSchema = z.object({
  id: z.string(),
  created: z.string().meta({ description: 'ISO 8601' }),
  last_seen: z.string().meta({ description: 'ISO 8601 (to the hour: a use is recorded at most once an hour)' }),
  expires: z.string().meta({ description: 'ISO 8601: 30 days after the last use, 90 days after sign-in at most' }),
  user_agent: z.string(),
  current: z.boolean().meta({ description: 'the session of this request' }),
});
export type Session = z.infer<typeof sessionSchema>;

const dashboard = { family: 'dashboard', auth: 'dashboardSession' } as const;
const operator = { family: 'operator', auth: 'operatorToken' } as const;
const signedIn = { 401: error('no session (code unauthenticated)') };
const writes = {
  ...signedIn,
  403: error('Origin is not the dashboard, or X-CSRF-Token is missing or wrong (code csrf)'),
};
const teamErrors = {
  ...writes,
  403: error('csrf (as above), or the role may not manage the team (code forbidden)'),
  404: error('no such shop among the user’s shops, or no such user in it'),
};
const lastOwner = { 409: error('last_owner: the shop would have no owner left (or already_member when adding)') };
const signInForm = (field: string, description: string) => ({
  schema: z.object({ [field]: z.string().meta({ description }) }),
  mediaTypes: ['application/x-www-form-urlencoded'],
});
const shopUser = z.object({ shopId: z.int(), userId: z.int() });

export const accountEndpoints: Endpoint[] = [
  {
    method: 'post',
    path: '/dashboard/api/sign-in-link',
    family: 'dashboard',
    summary:
      'E-mail a sign-in link (valid 15 minutes, once); the same answer whether or not the address has access, and past its limit of 5 links an hour and 20 a day (then nothing is sent)',
    body: { schema: signInLinkSchema },
    answers: {
      202: json(z.object({ status: z.literal('sent') }), 'accepted'),
      400: error('invalid: not an address'),
      429: error('too many requests from this client (Retry-After header); never for the address asked about'),
    },
  },
  {
    method: 'get',
    path: '/dashboard/sign-in/{token}',
    family: 'dashboard',
    summary: 'The page a sign-in link opens: a "Sign in" button that POSTs the token (opening it uses nothing up)',
    params: z.object({ token: z.string() }),
    answers: {
      200: html('the page with the button (pressing it says if the link was used or expired)'),
      404: html('unknown link: a form for a new link'),
    },
  },
  {
    method: 'post',
    path: '/dashboard/sign-in',
    family: 'dashboard',
    summary: 'Use the link: starts a session (Set-Cookie) and redirects to the dashboard',
    body: signInForm('token', 'the secret of the link'),
    answers: {
      303: empty('signed in; Location /dashboard/'),
      403: html('sent from another site (Origin)'),
      404: html('unknown link'),
      410: html('used or expired: a form for a new link'),
    },
  },
  {
    method: 'post',
    path: '/dashboard/sign-in/new',
    family: 'dashboard',
    summary: 'The pages’ form for a new link (as POST /dashboard/api/sign-in-link, answered as a page)',
    body: signInForm('email', 'the address'),
    answers: {
      202: html('a link is on its way if the address has access'),
      400: html('not an address'),
      429: html('too many requests from this client'),
    },
  },
  {
    ...dashboard,
    method: 'get',
    path: '/dashboard/api/me',
    summary: 'The signed-in user, their shops with the role in each, and the CSRF token for writes',
    answers: { 200: json(meSchema), ...signedIn },
  },
  {
    ...dashboard,
    method: 'get',
    path: '/dashboard/api/sessions',
    summary: 'The user’s live sessions, most recently used first',
    answers: { 200: json(z.object({ sessions: z.array(sessionSchema) })), ...signedIn },
  },
  {
    ...dashboard,
    method: 'delete',
    path: '/dashboard/api/sessions/{sessionId}',
    summary: 'End one of the user’s sessions',
    params: z.object({ sessionId: z.string() }),
    answers: { 204: empty('ended'), ...writes, 404: error('no such session of this user') },
  },
  {
    ...dashboard,
    method: 'post',
    path: '/dashboard/api/sign-out',
    summary: 'End this session',
    answers: { 204: empty('signed out; the cookie is cleared'), ...writes },
  },
  {
    ...dashboard,
    method: 'post',
    path: '/dashboard/api/sign-out-everywhere',
    summary: 'End every session of the user, this one included',
    answers: { 200: json(z.object({ ended: z.int() })), ...writes },
  },
  {
    ...dashboard,
    method: 'get',
    path: '/dashboard/api/shops/{shopId}/users',
    summary: 'The shop’s team (owners)',
    params: ids('shopId'),
    answers: { 200: json(team), ...teamErrors },
  },
  {
    ...dashboard,
    method: 'post',
    path: '/dashboard/api/shops/{shopId}/users',
    summary: 'Add a user to the team (owners); e-mails them a sign-in link',
    params: ids('shopId'),
    body: { schema: addUserSchema },
    answers: {
      201: json(teamUserSchema, 'added'),
      400: error('invalid; the message names the field'),
      ...teamErrors,
      ...lastOwner,
      429: error(
        `a daily limit of the owners’ additions: shop_invitations_limit (${INVITATIONS_PER_SHOP_PER_DAY} a shop) or address_invitations_limit (${INVITATIONS_PER_ADDRESS_PER_DAY} an address, whichever shops); Retry-After: the next UTC day`,
      ),
    },
  },
  {
    ...dashboard,
    method: 'patch',
    path: '/dashboard/api/shops/{shopId}/users/{userId}',
    summary: 'Change a user’s role (owners)',
    params: shopUser,
    body: { schema: patchUserSchema },
    answers: {
      200: json(teamUserSchema),
      400: error('invalid; the message names the field'),
      ...teamErrors,
      ...lastOwner,
    },
  },
  {
    ...dashboard,
    method: 'delete',
    path: '/dashboard/api/shops/{shopId}/users/{userId}',
    summary: 'Remove a user from the team (owners)',
    params: shopUser,
    answers: { 204: empty('removed'), ...teamErrors, ...lastOwner },
  },
  {
    ...operator,
    method: 'get',
    path: '/admin/api/webshops/{id}/users',
    summary: 'A shop’s dashboard users',
    params: ids('id'),
    answers: { 200: json(team), 401: error('no or wrong operator token'), 404: error('no such webshop') },
  },
  {
    ...operator,
    method: 'post',
    path: '/admin/api/webshops/{id}/users',
    summary:
      'Add a dashboard user to a shop; e-mails them a sign-in link (the owners’ daily limits do not hold the operator)',
    params: ids('id'),
    body: { schema: addUserSchema },
    answers: {
      201: json(teamUserSchema, 'added'),
      401: error('no or wrong operator token'),
      404: error('no such webshop'),
      409: error('already_member'),
      422: error('invalid input; the message names the field'),
    },
  },
  {
    ...operator,
    method: 'patch',
    path: '/admin/api/webshops/{id}/users/{userId}',
    summary: 'Change a dashboard user’s role in the shop',
    params: ids('id', 'userId'),
    body: { schema: patchUserSchema },
    answers: {
      200: json(teamUserSchema),
      401: error('no or wrong operator token'),
      404: error('no such webshop or user'),
      409: error('last_owner'),
      422: error('invalid input; the message names the field'),
    },
  },
  {
    ...operator,
    method: 'delete',
    path: '/admin/api/webshops/{id}/users/{userId}',
    summary: 'Remove a dashboard user from the shop',
    params: ids('id', 'userId'),
    answers: {
      204: empty('removed'),
      401: error('no or wrong operator token'),
      404: error('no such webshop or user'),
      409: error('last_owner'),
    },
  },
];
