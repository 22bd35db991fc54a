import type Router from '@koa/router';
import type { Services } from '../services.js';
import { openApiDocument } from './document.js';

export function registerOpenApiRoutes(router: Router, services: Services): void {
  const document = openApiDocument(services.config);
  router.get('/api/openapi.json', (ctx) => {
    ctx.set('Access-Control-Allow-Origin', '*');
    ctx.body = document;
  });
}

/** Koa paths (`/x/:id.json`) in OpenAPI form (`/x/{id}.json`). */
export const toOpenApiPath = (path: string) => path.replace(/:([A-Za-z_]+)/g, '{$1}');

/** The routed paths the OpenAPI document must describe: the REST and operator APIs and their public siblings. */
export const isDocumentedApi = (path: string) =>
  /^\/(api|admin\/api)\//.test(path) || ['/webshops/fetch_domain.json', '/webshops/rich_snippet', '/healthz'].includes(path);
