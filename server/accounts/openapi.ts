// The OpenAPI entries of the accounts' routes (routes.ts, admin.ts), spread into server/openapi/document.ts.
// Request bodies come from the validating zod schemas (input.ts).
import {
  adminError as error,
  body,
  bool,
  int,
  json,
  nullable,
  obj,
  pathParam,
  str,
  type Schema,
} from '../http/openapi.js';
import { addUserSchema, patchUserSchema, signInLinkSchema } from './input.js';
import { INVITATIONS_PER_ADDRESS_PER_DAY, INVITATIONS_PER_SHOP_PER_DAY } from './invitation-limit-store.js';
import { ROLES } from './roles.js';

const html = (description: string) => ({ description, content: { 'text/html': { schema: str() } } });

const dashboard = { tags: ['dashboard'], security: [{ dashboardSession: [] }] };
const signedIn = { '401': error('no session (code unauthenticated)') };
const writes = {
  ...signedIn,
  '403': error('Origin is not the dashboard, or X-CSRF-Token is missing or wrong (code csrf)'),
};
const teamErrors = {
  ...writes,
  '403': error('csrf (as above), or the role may not manage the team (code forbidden)'),
  '404': error('no such shop among the user’s shops, or no such user in it'),
};
const limited = {
  '429': error('too many requests from this client (Retry-After header); never for the address asked about'),
};

const role = { type: 'string', enum: [...ROLES] };
const actor = obj(
  { kind: { type: 'string', enum: ['user', 'operator', 'system'] }, id: str('the user’s id, for kind user') },
  ['kind'],
);
const teamUser = obj(
  {
    id: int(),
    email: str('when adding: the address as typed, whether or not it was known'),
    role,
    added_at: nullable('string', 'when they were added to this shop (ISO 8601)'),
    added_by: {
      oneOf: [actor, { type: 'null' }],
      description: 'who added them (null: added before this was recorded)',
    },
    signed_in_since_added: bool(
      'whether they signed in since being added to this shop (false: a pending invitation); nothing of other shops',
    ),
    shop_id: int(),
  },
  ['id', 'email', 'role', 'added_at', 'added_by', 'signed_in_since_added', 'shop_id'],
);
const team = obj({ users: { type: 'array', items: teamUser } });
const lastOwner = { '409': error('last_owner: the shop would have no owner left (or already_member when adding)') };
const signInForm = (field: string, description: string) => ({
  required: true,
  content: { 'application/x-www-form-urlencoded': { schema: obj({ [field]: str(description) }) } },
});

export const ACCOUNT_SECURITY_SCHEMES = {
  dashboardSession: {
    type: 'apiKey',
    in: 'cookie',
    name: 'session',
    description:
      '`__Host-session` over https. Writes also need `Origin` (the service) and `X-CSRF-Token` (from /dashboard/api/me).',
  },
};

export function accountPaths(): Record<string, Schema> {
  return {
    '/dashboard/api/sign-in-link': {
      post: {
        tags: ['dashboard'],
        summary:
          'E-mail a sign-in link (valid 15 minutes, once); the same answer whether or not the address has access, and past its limit of 5 links an hour and 20 a day (then nothing is sent)',
        requestBody: body(signInLinkSchema),
        responses: {
          '202': json(obj({ status: { const: 'sent' } }), 'accepted'),
          '400': error('invalid: not an address'),
          ...limited,
        },
      },
    },
    '/dashboard/sign-in/{token}': {
      get: {
        tags: ['dashboard'],
        summary: 'The page a sign-in link opens: a "Sign in" button that POSTs the token (opening it uses nothing up)',
        parameters: [pathParam('token', str())],
        responses: {
          '200': html('the page with the button (pressing it says if the link was used or expired)'),
          '404': html('unknown link: a form for a new link'),
        },
      },
    },
    '/dashboard/sign-in': {
      post: {
        tags: ['dashboard'],
        summary: 'Use the link: starts a session (Set-Cookie) and redirects to the dashboard',
        requestBody: signInForm('token', 'the secret of the link'),
        responses: {
          '303': { description: 'signed in; Location /dashboard/' },
          '403': html('sent from another site (Origin)'),
          '404': html('unknown link'),
          '410': html('used or expired: a form for a new link'),
        },
      },
    },
    '/dashboard/sign-in/new': {
      post: {
        tags: ['dashboard'],
        summary: 'The pages’ form for a new link (as POST /dashboard/api/sign-in-link, answered as a page)',
        requestBody: signInForm('email', 'the address'),
        responses: {
          '202': html('a link is on its way if the address has access'),
          '400': html('not an address'),
          '429': html('too many requests from this client'),
        },
      },
    },
    '/dashboard/api/me': {
      get: {
        ...dashboard,
        summary: 'The signed-in user, their shops with the role in each, and the CSRF token for writes',
        responses: {
          '200': json(
            obj({
              user: obj({ id: int(), email: str() }),
              shops: { type: 'array', items: obj({ id: int(), name: str(), role }) },
              csrf_token: str('send as X-CSRF-Token on POST, PUT, PATCH and DELETE'),
              language: { type: 'null', description: 'the dashboard chooses from the browser' },
            }),
          ),
          ...signedIn,
        },
      },
    },
    '/dashboard/api/sessions': {
      get: {
        ...dashboard,
        summary: 'The user’s live sessions, most recently used first',
        responses: {
          '200': json(
            obj({
              sessions: {
                type: 'array',
                items: obj({
                  id: str(),
                  created: str('ISO 8601'),
                  last_seen: str('ISO 8601 (to the hour: a use is recorded at most once an hour)'),
                  expires: str('ISO 8601: 30 days after the last use, 90 days after sign-in at most'),
                  user_agent: str(),
                  current: bool('the session of this request'),
                }),
              },
            }),
          ),
          ...signedIn,
        },
      },
    },
    '/dashboard/api/sessions/{sessionId}': {
      delete: {
        ...dashboard,
        summary: 'End one of the user’s sessions',
        parameters: [pathParam('sessionId', str())],
        responses: { '204': { description: 'ended' }, ...writes, '404': error('no such session of this user') },
      },
    },
    '/dashboard/api/sign-out': {
      post: {
        ...dashboard,
        summary: 'End this session',
        responses: { '204': { description: 'signed out; the cookie is cleared' }, ...writes },
      },
    },
    '/dashboard/api/sign-out-everywhere': {
      post: {
        ...dashboard,
        summary: 'End every session of the user, this one included',
        responses: { '200': json(obj({ ended: int() })), ...writes },
      },
    },
    '/dashboard/api/shops/{shopId}/users': {
      get: {
        ...dashboard,
        summary: 'The shop’s team (owners)',
        parameters: [pathParam('shopId')],
        responses: { '200': json(team), ...teamErrors },
      },
      post: {
        ...dashboard,
        summary: 'Add a user to the team (owners); e-mails them a sign-in link',
        parameters: [pathParam('shopId')],
        requestBody: body(addUserSchema),
        responses: {
          '201': json(teamUser, 'added'),
          '400': error('invalid; the message names the field'),
          ...teamErrors,
          ...lastOwner,
          '429': error(
            `a daily limit of the owners’ additions: shop_invitations_limit (${INVITATIONS_PER_SHOP_PER_DAY} a shop) or address_invitations_limit (${INVITATIONS_PER_ADDRESS_PER_DAY} an address, whichever shops); Retry-After: the next UTC day`,
          ),
        },
      },
    },
    '/dashboard/api/shops/{shopId}/users/{userId}': {
      patch: {
        ...dashboard,
        summary: 'Change a user’s role (owners)',
        parameters: [pathParam('shopId'), pathParam('userId')],
        requestBody: body(patchUserSchema),
        responses: {
          '200': json(teamUser),
          '400': error('invalid; the message names the field'),
          ...teamErrors,
          ...lastOwner,
        },
      },
      delete: {
        ...dashboard,
        summary: 'Remove a user from the team (owners)',
        parameters: [pathParam('shopId'), pathParam('userId')],
        responses: { '204': { description: 'removed' }, ...teamErrors, ...lastOwner },
      },
    },
    '/admin/api/webshops/{id}/users': {
      get: {
        security: [{ operatorToken: [] }],
        tags: ['operator'],
        summary: 'A shop’s dashboard users',
        parameters: [pathParam('id')],
        responses: { '200': json(team), '401': error('no or wrong operator token'), '404': error('no such webshop') },
      },
      post: {
        security: [{ operatorToken: [] }],
        tags: ['operator'],
        summary:
          'Add a dashboard user to a shop; e-mails them a sign-in link (the owners’ daily limits do not hold the operator)',
        parameters: [pathParam('id')],
        requestBody: body(addUserSchema),
        responses: {
          '201': json(teamUser, 'added'),
          '401': error('no or wrong operator token'),
          '404': error('no such webshop'),
          '409': error('already_member'),
          '422': error('invalid input; the message names the field'),
        },
      },
    },
    '/admin/api/webshops/{id}/users/{userId}': {
      patch: {
        security: [{ operatorToken: [] }],
        tags: ['operator'],
        summary: 'Change a dashboard user’s role in the shop',
        parameters: [pathParam('id'), pathParam('userId')],
        requestBody: body(patchUserSchema),
        responses: {
          '200': json(teamUser),
          '401': error('no or wrong operator token'),
          '404': error('no such webshop or user'),
          '409': error('last_owner'),
          '422': error('invalid input; the message names the field'),
        },
      },
      delete: {
        security: [{ operatorToken: [] }],
        tags: ['operator'],
        summary: 'Remove a dashboard user from the shop',
        parameters: [pathParam('id'), pathParam('userId')],
        responses: {
          '204': { description: 'removed' },
          '401': error('no or wrong operator token'),
          '404': error('no such webshop or user'),
          '409': error('last_owner'),
        },
      },
    },
  };
}
