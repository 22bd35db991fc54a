// Errors and the response envelopes the service speaks:
// - classic: the spec's /api endpoints, `{status:"error", message}` (HTTP 200 for application errors);
// - admin: the operator API, `{error:{code, message}}` with honest HTTP statuses;
// - public: the same shape as admin, for public JSON endpoints outside /api;
// - xml: the classic rules for the XML feed, `<response><status>error</status><message>…` (HTTP 200);
// - html: a small readable page, for errors raised before an HTML page's own handler runs (a 429 from the
//   per-address limit inside a merchant's widget iframe or on a review page must not show raw JSON).
// Which paths speak which envelope is declared once, in server/routes.ts; an endpoint may narrow it (classic()
// adds the fields it returns empty).
import type { Context, Middleware } from 'koa';
import { escapeHtml } from './html.js';
import { XML_CONTENT_TYPE, xmlErrorBody } from './xml.js';

type EnvelopeStyle = 'classic' | 'admin' | 'xml' | 'html';

export interface Envelope {
  style: EnvelopeStyle;
  /** Fields a classic endpoint returns empty on error (e.g. `ratings: []`, `data: null`). */
  empty?: Record<string, unknown>;
}

/** An error with an HTTP status that is safe to show to the caller. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string = codeFor(status),
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** A classic-endpoint application error: HTTP 200 `{status:"error", message}`. */
export class ClassicError extends Error {}

function codeFor(status: number): string {
  const codes: Record<number, string> = {
    400: 'bad_request',
    401: 'unauthorized',
    403: 'forbidden',
    404: 'not_found',
    405: 'method_not_allowed',
    409: 'conflict',
    413: 'payload_too_large',
    415: 'unsupported_media_type',
    422: 'unprocessable_entity',
    429: 'too_many_requests',
    503: 'unavailable',
  };
  return codes[status] ?? 'error';
}

/** The envelope the route table (or the endpoint) chose; `{error:{code, message}}` when none did. */
export function envelopeOf(ctx: Context): Envelope {
  return (ctx.state.envelope as Envelope | undefined) ?? { style: 'admin' };
}

/** Middleware that names the envelope of the requests it sees (declared per group of routes in routes.ts). */
export function useEnvelope(envelope: Envelope): Middleware {
  return async (ctx, next) => {
    ctx.state.envelope = envelope;
    await next();
  };
}

/** Writes an error in the envelope of the endpoint being served. */
export function sendError(ctx: Context, status: number, message: string, code = codeFor(status)): void {
  const envelope = envelopeOf(ctx);
  ctx.status = status;
  if (envelope.style === 'html') {
    ctx.type = 'text/html; charset=utf-8';
    // Nothing to load and nothing to run; framing stays allowed, since the widget's page is made to be framed.
    ctx.set('Content-Security-Policy', "default-src 'none'");
    ctx.set('Cache-Control', 'no-store');
    ctx.body = errorPage(message);
    return;
  }
  if (envelope.style === 'xml') {
    ctx.body = xmlErrorBody(message);
    ctx.set('Content-Type', XML_CONTENT_TYPE);
    return;
  }
  ctx.body =
    envelope.style === 'classic'
      ? { status: 'error', message, ...(envelope.empty ?? {}) }
      : { error: { code, message } };
}

function errorPage(message: string): string {
  const text = escapeHtml(message);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${text}</title></head><body><p>${text}</p></body></html>`;
}
