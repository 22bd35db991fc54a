// Errors and the response envelopes the service speaks:
// - classic: the spec's /api endpoints, `{status:"error", message}` (HTTP 200 for application errors);
// - admin: the operator API, `{error:{code, message}}` with honest HTTP statuses;
// - public: the same shape as admin, for public JSON endpoints outside /api;
// - xml: the classic rules for the XML feed, `<response><status>error</status><message>…` (HTTP 200);
// - html: a small readable page, for errors raised before an HTML page's own handler runs (a 429 from the
//   per-address limit inside a merchant's widget iframe or on a review page must not show raw JSON).
import type { Context } from 'koa';
import { XML_CONTENT_TYPE, xmlErrorBody } from './xml.js';

export type EnvelopeStyle = 'classic' | 'admin' | 'xml' | 'html';

/** The pages people (not programs) open: the widget and configurator, review links, shop pages, unsubscribe. */
const HTML_PAGE = /^\/(?:webshops\/(?:widget_html|widget|\d+)\/?$|(?:review|edit|confirm|unsubscribe)\/)/;

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

export function envelopeOf(ctx: Context): Envelope {
  const set = ctx.state.envelope as Envelope | undefined;
  if (set) return set;
  if (HTML_PAGE.test(ctx.path)) return { style: 'html' };
  if (!ctx.path.startsWith('/api/')) return { style: 'admin' };
  return { style: ctx.path.endsWith('.xml') ? 'xml' : 'classic' };
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

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function errorPage(message: string): string {
  const text = escapeHtml(message);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${text}</title></head><body><p>${text}</p></body></html>`;
}
