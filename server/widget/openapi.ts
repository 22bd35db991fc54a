// The contract of the rich snippet for plugins (routes.ts); the widget's own addresses are pages, not an API.
import { z } from 'zod';
import { json, type Endpoint } from '../http/contract.js';

const richSnippet = z.union([
  z.object({ result: z.literal('ok'), content: z.string() }),
  z.object({ result: z.literal('error'), error: z.string() }),
]);
export type RichSnippet = z.infer<typeof richSnippet>;

export const widgetEndpoints: Endpoint[] = [
  {
    method: 'get',
    path: '/webshops/rich_snippet',
    family: 'public',
    summary: 'Rich snippet HTML (AggregateRating) for plugins',
    query: z.object({
      id: z.int().meta({ description: 'webshop id' }),
      lang: z.string().meta({ description: 'language' }).optional(),
    }),
    answers: { 200: json(richSnippet) },
  },
];
