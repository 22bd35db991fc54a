// The OpenAPI 3.1 document of the REST API (the spec's endpoints and our extensions), the operator API and the
// dashboard's API, served at /api/openapi.json. It is generated: each feature lists its endpoints' contracts in its
// own `openapi.ts` (server/http/contract.ts says what a contract holds: the zod schemas its route validates with and
// the schemas of its answers), and this module only puts them together. A new endpoint goes into its feature's
// list; a new feature's list goes into ENDPOINTS below. openapi.it.test.ts fails when a routed path is missing.
import {
  type CreateDocumentOptions,
  createDocument,
  type ZodOpenApiOperationObject,
  type ZodOpenApiPathsObject,
} from 'zod-openapi';
import type { Config } from '../config.js';
import type { Answer, Endpoint } from '../http/contract.js';
import { accountEndpoints } from '../accounts/openapi.js';
import { auditEndpoints } from '../audit/openapi.js';
import { consentEndpoints } from '../consents/openapi.js';
import { customerEndpoints } from '../customers/openapi.js';
import { dashboardEndpoints } from '../dashboard/openapi.js';
import { domainEndpoints } from '../domains/openapi.js';
import { embedEndpoints } from '../embed/openapi.js';
import { feedEndpoints } from '../feed/openapi.js';
import { invitationEndpoints } from '../invitations/openapi.js';
import { moderationEndpoints } from '../moderation/openapi.js';
import { policyEndpoints } from '../policy/openapi.js';
import { ratingEndpoints } from '../ratings/openapi.js';
import { replyEndpoints } from '../replies/openapi.js';
import { reviewEndpoints } from '../reviews/openapi.js';
import { webhookEndpoints } from '../webhooks/openapi.js';
import { webshopEndpoints } from '../webshops/openapi.js';
import { widgetEndpoints } from '../widget/openapi.js';
import { exportEndpoints } from '../exports/openapi.js';
import { importEndpoints } from '../imports/openapi.js';
import { photoEndpoints } from '../photos/openapi.js';
import { productEndpoints } from '../products/openapi.js';
import { serviceEndpoints } from './endpoints.js';
import { complianceEndpoints } from '../compliance/openapi.js';

/** Every endpoint of the document, feature by feature. */
export const ENDPOINTS: Endpoint[] = [
  ...invitationEndpoints,
  ...ratingEndpoints,
  ...webshopEndpoints,
  ...feedEndpoints,
  ...consentEndpoints,
  ...replyEndpoints,
  ...webhookEndpoints,
  ...domainEndpoints,
  ...widgetEndpoints,
  ...serviceEndpoints,
  ...embedEndpoints,
  ...reviewEndpoints,
  ...policyEndpoints,
  ...auditEndpoints,
  ...moderationEndpoints,
  ...customerEndpoints,
  ...accountEndpoints,
  ...dashboardEndpoints,
  ...exportEndpoints,
  ...importEndpoints,
  ...photoEndpoints,
  ...productEndpoints,
  ...complianceEndpoints,
];

const content = (answer: Answer) =>
  answer.schema
    ? {
        content: {
          [answer.mediaType ?? 'application/json']: { schema: answer.schema },
          ...Object.fromEntries(Object.entries(answer.alternatives ?? {}).map(([type, schema]) => [type, { schema }])),
        },
      }
    : {};

function operation(endpoint: Endpoint): ZodOpenApiOperationObject {
  const { family, auth, summary, description, params, query, body, answers } = endpoint;
  return {
    tags: [family],
    ...(auth ? { security: [{ [auth]: [] }] } : {}),
    summary,
    ...(description ? { description } : {}),
    ...(params || query ? { requestParams: { ...(params ? { path: params } : {}), ...(query ? { query } : {}) } } : {}),
    ...(body
      ? {
          requestBody: {
            ...(body.optional ? {} : { required: true }),
            content: Object.fromEntries(
              (body.mediaTypes ?? ['application/json']).map((type) => [type, { schema: body.schema }]),
            ),
          },
        }
      : {}),
    responses: Object.fromEntries(
      Object.entries(answers).map(([status, answer]) => [
        status,
        { description: answer.description, ...content(answer) },
      ]),
    ),
  };
}

/** What the generated schemas say that a reader should not take from them. */
const plainer: CreateDocumentOptions['override'] = ({ jsonSchema, io }) => {
  // Answers gain fields over time and clients ignore those they do not know (compatibility.md): only requests are
  // closed to unknown fields, where the schema is strict.
  if (io === 'output' && jsonSchema.additionalProperties === false) delete jsonSchema.additionalProperties;
  // z.int()'s safe-integer bounds are no limit of ours.
  if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
  if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
};

function paths(endpoints: Endpoint[]): ZodOpenApiPathsObject {
  const byPath: ZodOpenApiPathsObject = {};
  for (const endpoint of endpoints) {
    byPath[endpoint.path] ??= {};
    const item = byPath[endpoint.path]!;
    if (item[endpoint.method]) throw new Error(`${endpoint.method} ${endpoint.path} is described twice`);
    item[endpoint.method] = operation(endpoint);
  }
  return byPath;
}

export function openApiDocument(config: Config) {
  const document = createDocument(
    {
      openapi: '3.1.0',
      info: {
        title: `${config.brandName} review collection API`,
        version: '1.0.0',
        description:
          'Classic endpoints answer application errors with HTTP 200 and `{"status":"error","message":…}`. ' +
          'Timestamps are `YYYY-MM-DD HH:MM:SS` in UTC. Webhook deliveries carry `X-Hash`, the lowercase hex ' +
          'HMAC-SHA512 of the raw body keyed with the subscription secret.',
      },
      servers: [{ url: config.baseUrl }],
      tags: [
        { name: 'classic' },
        { name: 'webhooks' },
        { name: 'operator' },
        { name: 'public' },
        {
          name: 'embed',
          description: "what the shoppers' embed calls from shops' pages (CORS: any origin, no credentials)",
        },
        {
          name: 'dashboard',
          description:
            "the merchant dashboard's API: same origin only, a session cookie, Origin and X-CSRF-Token on writes",
        },
      ],
      paths: paths(ENDPOINTS),
      components: {
        securitySchemes: {
          operatorToken: { type: 'http', scheme: 'bearer', description: 'ADMIN_TOKEN' },
          dashboardSession: {
            type: 'apiKey',
            in: 'cookie',
            name: 'session',
            description:
              '`__Host-session` over https. Writes also need `Origin` (the service) and `X-CSRF-Token` (from /dashboard/api/me).',
          },
        },
      },
    },
    { override: plainer },
  );
  // Optional parameters say so, as they always did here (OpenAPI's default, written out for readers of the JSON).
  for (const item of Object.values(document.paths ?? {})) {
    for (const op of Object.values(item)) {
      for (const parameter of (op as { parameters?: { required?: boolean }[] }).parameters ?? []) {
        parameter.required ??= false;
      }
    }
  }
  return document;
}
