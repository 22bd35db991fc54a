// What the accounts' routes accept, as zod schemas (the OpenAPI document is generated from them), and the
// dashboard's validation error (400 `invalid`, naming the field).
import { z } from 'zod';
import { HttpError } from '../http/errors.js';
import { validate } from '../http/validate.js';
import { isValidEmail, normalizeEmail } from '../email.js';
import { LANGUAGES } from '../languages.js';
import { ROLES } from './roles.js';

const email = z.string().max(254).transform(normalizeEmail).refine(isValidEmail, 'a valid e-mail address');

export const signInLinkSchema = z.object({ email }).strict();

export const signInFormSchema = z.object({ token: z.string().max(100) });

/** The page's "ask for a new link" form. */
export const newLinkFormSchema = z.object({ email });

export const addUserSchema = z
  .object({
    email,
    role: z.enum(ROLES),
    /** The sign-in e-mail's language; the shop's main language when absent. */
    language: z.enum(LANGUAGES).optional(),
  })
  .strict();

export const patchUserSchema = z.object({ role: z.enum(ROLES) }).strict();

export const sessionIdParam = z.string().regex(/^[A-Za-z0-9_-]{12}$/);

/** Zod at the edge, answered as the dashboard answers bad input: 400 `{error:{code:'invalid', message}}`. */
export function parseInput<T>(schema: z.ZodType<T>, input: unknown): T {
  try {
    return validate(schema, input, 400);
  } catch (err) {
    if (err instanceof HttpError && err.status === 400) throw new HttpError(400, err.message, 'invalid');
    throw err;
  }
}
