// App-wide middleware: error envelopes (never a stack trace), request ids in logs.
import { randomUUID } from 'node:crypto';
import type { Context, Middleware } from 'koa';
import { HttpError, sendError, envelopeOf } from './errors.js';
import { MESSAGES } from './classic.js';
import type { Logger } from '../log.js';
import { redactUrl } from '../log.js';

export function errorHandler(log: Logger, brandName: string): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      if (err instanceof HttpError) {
        for (const [name, value] of Object.entries(err.headers)) ctx.set(name, value);
        sendError(ctx, err.status, err.message, err.code);
        return;
      }
      const status = (err as { status?: number; expose?: boolean }).status;
      if (typeof status === 'number' && status >= 400 && status < 500) {
        // Errors raised by Koa itself (e.g. ctx.throw, malformed URLs).
        sendError(ctx, status, (err as Error).message || 'Bad request');
        return;
      }
      const errorId = randomUUID();
      log.error({ err, errorId, method: ctx.method, url: redactUrl(ctx.url) }, 'unexpected error');
      ctx.set('X-Error-Id', errorId);
      const envelope = envelopeOf(ctx);
      if (envelope.style === 'classic' || envelope.style === 'xml') {
        // The classic endpoints answer application errors with HTTP 200 (see docs/decisions.md); clients read the body.
        const classicStatus = ctx.state.unexpectedStatus ?? 200;
        sendError(ctx, classicStatus as number, MESSAGES.unexpected(brandName));
      } else {
        sendError(ctx, 500, `Unexpected error (error id ${errorId}).`, 'internal_error');
      }
    }
  };
}

/** A client that went away mid-request: nothing to fix on our side. */
const CLIENT_GONE = new Set([
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ERR_STREAM_PREMATURE_CLOSE',
  'HPE_INVALID_EOF_STATE',
]);

/**
 * Koa's `error` event: errors met once an answer was under way (a body broken off by the client, a stream that failed
 * while sent). Without a listener Koa prints them with their stack to stderr, outside the log and its redaction.
 */
export function strayErrorLogger(log: Logger): (err: Error & { code?: string }, ctx?: Context) => void {
  return (err, ctx) => {
    const where = ctx ? { method: ctx.method, url: redactUrl(ctx.url) } : {};
    if (err.code && CLIENT_GONE.has(err.code)) log.debug({ ...where, code: err.code }, 'client went away');
    else log.warn({ err, ...where }, 'error after the answer began');
  };
}

export function accessLog(log: Logger): Middleware {
  return async (ctx, next) => {
    const started = performance.now();
    await next();
    if (log.isLevelEnabled('debug')) {
      log.debug({ method: ctx.method, url: redactUrl(ctx.url), status: ctx.status, ms: performance.now() - started });
    }
  };
}
