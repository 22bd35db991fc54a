// Building blocks of the OpenAPI document, shared by server/openapi/document.ts and the feature modules that
// describe their own routes (accounts, dashboard). Bodies and query parameters come from the zod schemas that
// validate them, so the document cannot drift from what is accepted.
import { z } from 'zod';

export type Schema = Record<string, unknown>;

/** The JSON Schema of what a zod schema accepts (its input side: before defaults and transforms). */
export function fromZod(schema: z.ZodType): Schema {
  const { $schema: _, ...json } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Schema;
  return json;
}

/** The query parameters of a zod object schema. */
export function queryFromZod(schema: z.ZodType): Schema[] {
  const json = fromZod(schema) as { properties?: Record<string, Schema>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, property]) => ({
    name,
    in: 'query',
    required: json.required?.includes(name) ?? false,
    schema: property,
  }));
}

const described = (description?: string) => (description ? { description } : {});
export const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
export const str = (description?: string): Schema => ({ type: 'string', ...described(description) });
export const int = (description?: string): Schema => ({ type: 'integer', ...described(description) });
export const bool = (description?: string): Schema => ({ type: 'boolean', ...described(description) });
export const nullable = (type: string, description?: string): Schema => ({
  type: [type, 'null'],
  ...described(description),
});
export const obj = (properties: Record<string, Schema>, required: string[] = Object.keys(properties)): Schema => ({
  type: 'object',
  properties,
  required,
});
export const json = (schema: Schema, description = 'OK') => ({
  description,
  content: { 'application/json': { schema } },
});
/** A JSON request body validated by `schema`. */
export const body = (schema: z.ZodType) => ({
  required: true,
  content: { 'application/json': { schema: fromZod(schema) } },
});
/** An answer in the operator envelope `{error:{code,message}}` (also the dashboard API's). */
export const adminError = (description: string) => json(ref('AdminError'), description);
/** A path parameter (an integer id unless said otherwise). */
export const pathParam = (name: string, schema: Schema = int()) => ({ name, in: 'path', required: true, schema });
