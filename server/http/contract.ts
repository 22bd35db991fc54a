// An endpoint's contract, written once: the zod schemas of what it accepts (the same schemas its route validates
// with) and of what it answers (the handlers' answer types are z.infer of them), with the words a reader of the API
// needs. server/openapi/document.ts turns every feature's list of contracts into the served OpenAPI document; nothing
// else describes the API. A new endpoint adds itself to its feature's `openapi.ts` list.
import { z } from 'zod';

/** The tag of an endpoint: which family of clients calls it. */
type Family = 'classic' | 'webhooks' | 'operator' | 'public' | 'embed' | 'dashboard';

/** One possible answer: its description and, when it has a body, the body's schema and media type. */
export interface Answer {
  description: string;
  schema?: z.ZodType;
  /** application/json unless said otherwise. */
  mediaType?: string;
  /** The same answer in other media types the client may ask for (an export as CSV or JSON). */
  alternatives?: Record<string, z.ZodType>;
}

export interface Endpoint {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** As OpenAPI writes it: `/api/1.0/webhooks/{id}.json`. */
  path: string;
  family: Family;
  /** The credentials it takes beyond the query string's: the operator's token or a dashboard session. */
  auth?: 'operatorToken' | 'dashboardSession';
  summary: string;
  description?: string;
  params?: z.ZodObject;
  query?: z.ZodObject;
  /** The request body: one schema, under each media type it may arrive as (application/json unless said). */
  body?: { schema: z.ZodType; mediaTypes?: string[]; optional?: true };
  answers: Record<number, Answer>;
}

export const json = (schema: z.ZodType, description = 'OK'): Answer => ({ description, schema });
export const html = (description: string): Answer => ({ description, schema: z.string(), mediaType: 'text/html' });
export const empty = (description: string): Answer => ({ description });

/** The operator API's error envelope, also the dashboard's and the embed's. */
const AdminError = z.object({ error: z.object({ code: z.string(), message: z.string() }) }).meta({ id: 'AdminError' });
export const adminError = (description: string): Answer => json(AdminError, description);

/** The classic endpoints' error envelope (HTTP 200 for application errors, see docs/api.md). */
const ClassicError = z.object({ status: z.literal('error'), message: z.string() }).meta({ id: 'ClassicError' });
export const classicError = (description: string): Answer => json(ClassicError, description);

/** Path parameters that are integer ids, by name. */
export const ids = <Name extends string>(...names: Name[]) =>
  z.object(Object.fromEntries(names.map((name) => [name, z.int()])) as Record<Name, z.ZodInt>);

/** A classic endpoint's credentials, in the query string (Add invitation also takes them in the body). */
export const credentials = z.object({
  id: z.int().meta({ description: 'webshop id' }),
  code: z.string().meta({ description: 'personal API code' }),
});

/** A classic endpoint's answers: HTTP 200 for success and application errors alike. */
export const classicAnswers = (success: z.ZodType): Record<number, Answer> => ({
  200: json(z.union([success, ClassicError]), 'success, or an application error in the same envelope'),
  413: classicError('body too large'),
  429: classicError('rate limited (Retry-After header)'),
});

/** A classic success: `status` and `message` first, then the endpoint's fields. */
export const classicSuccess = <Shape extends z.ZodRawShape>(message: string, shape: Shape) =>
  z.object({ status: z.literal('success'), message: z.literal(message), ...shape });

/** The operator API's usual failures. */
export const operatorErrors = {
  401: adminError('no or wrong operator token'),
  404: adminError('not found'),
  422: adminError('invalid input; the message names the field'),
};
