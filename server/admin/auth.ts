// The operator API is authorised by `Authorization: Bearer <ADMIN_TOKEN>`. Its error envelope comes from the
// route table (server/routes.ts, group "operator API").
import type { Middleware } from 'koa';
import { HttpError } from '../http/errors.js';
import { safeEqual } from '../http/credentials.js';

export function requireAdmin(adminToken: string | undefined): Middleware {
  return async (ctx, next) => {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(ctx.get('authorization'));
    if (!adminToken || !match || !safeEqual(match[1]!, adminToken)) {
      throw new HttpError(
        401,
        'A valid operator token is required (Authorization: Bearer <ADMIN_TOKEN>).',
        'unauthorized',
        {
          'WWW-Authenticate': 'Bearer',
        },
      );
    }
    await next();
  };
}
