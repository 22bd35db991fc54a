// Validation at the edges with zod: the first problem becomes a readable error naming the field.
import type { z } from 'zod';
import { HttpError } from './errors.js';
import { parseId } from './credentials.js';

/** Validates operator/JSON input: 422 `{error:{code:"validation_failed", message:"field: problem"}}`. */
export function validate<T>(schema: z.ZodType<T>, input: unknown, status = 422): T {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  throw new HttpError(status, describeIssue(parsed.error), status === 422 ? 'validation_failed' : undefined);
}

function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0]!;
  const where = issue.path.length ? issue.path.join('.') : 'body';
  return `${where}: ${issue.message}`;
}

/** A positive integer route parameter; anything else is a 404 for the named resource. */
export function idParam(value: string | undefined, resource: string): number {
  const id = parseId(value);
  if (id === undefined) throw new HttpError(404, `No such ${resource}.`);
  return id;
}
