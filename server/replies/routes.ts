// POST /api/1.0/review_replies.json: a shop's public reply to one of its reviews. Unlike most classic endpoints
// this one answers with the HTTP statuses the spec names (400, 401, 404), still in the `{status, message}` envelope.
import type Router from '@koa/router';
import type { Middleware } from 'koa';
import { classic } from '../http/classic.js';
import { parseJsonObject, readRawBody } from '../http/body.js';
import { HttpError } from '../http/errors.js';
import { validate } from '../http/validate.js';
import type { Services } from '../services.js';
import { replyRequestSchema } from './reply.js';
import { replyToReview } from './service.js';

const BODY_LIMIT = 1024 * 1024;

// Clients of this endpoint read HTTP statuses, so an unexpected failure must not look like a 200.
const failWith500: Middleware = async (ctx, next) => {
  ctx.state.unexpectedStatus = 500;
  await next();
};

export function registerReplyRoutes(
  router: Router,
  services: Pick<Services, 'config' | 'now' | 'reviews' | 'scheduler' | 'shopLimiter' | 'webshops'>,
): void {
  const { config } = services;

  router.post(
    '/api/1.0/review_replies.json',
    failWith500,
    classic(services, { empty: {}, unauthorized: { status: 401 } }, async (ctx, { shop }) => {
      if (!shop.reply_access) {
        throw new HttpError(
          401,
          `This webshop has no access to review replies. Please ask ${config.brandName} to grant it.`,
        );
      }
      // Parsed as JSON whatever the Content-Type says: the spec only knows JSON bodies here.
      const request = validate(replyRequestSchema, parseJsonObject(await readRawBody(ctx, BODY_LIMIT)), 400);
      // The rule is shared with the dashboard (service.ts); null also when deleted between the read and the write.
      const updated = await replyToReview(services, shop.id, request.review_id, request);
      if (!updated) throw notFound(request.review_id);
      return { message: 'Reply successfully added' };
    }),
  );
}

const notFound = (id: number) => new HttpError(404, `Review ${id} not found.`);
