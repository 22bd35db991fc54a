// Errors and the response envelopes the service speaks:
// - classic: the spec's /api endpoints, `{status:"error", message}` (HTTP 200 for application errors);
// - admin: the operator API, `{error:{code, message}}` with honest HTTP statuses;
// - public: the same shape as admin, for public JSON endpoints outside /api;
// - xml: the classic rules for the XML feed, `<response><status>error</status><message>…` (HTTP 200).
import type { Context } from 'koa';
import { XML_CONTENT_TYPE, xmlErrorBody } from './xml.js';

export type EnvelopeStyle = 'classic' | 'admin' | 'xml';

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
  if (!ctx.path.startsWith('/api/')) return { style: 'admin' };
  return { style: ctx.path.endsWith('.xml') ? 'xml' : 'classic' };
}

/** Writes an error in the envelope of the endpoint being served. */
export function sendError(ctx: Context, status: number, message: string, code = codeFor(status)): void {
  const envelope = envelopeOf(ctx);
  ctx.status = status;
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
