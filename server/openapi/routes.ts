import type Router from '@koa/router';
import type { Services } from '../services.js';
import { openApiDocument } from './document.js';

export function registerOpenApiRoutes(router: Router, services: Pick<Services, 'config'>): void {
  const document = openApiDocument(services.config);
  router.get('/api/openapi.json', (ctx) => {
    ctx.set('Access-Control-Allow-Origin', '*');
    ctx.body = document;
  });
}
