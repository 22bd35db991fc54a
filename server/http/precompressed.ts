// The one sender of bodies compressed ahead of time (the embed's files, the widget's cached pages): brotli when
// the client takes it, else gzip, else the plain bytes, with an ETag for conditional requests.
import type { Context } from 'koa';

export interface Precompressed {
  identity: Buffer;
  gzip: Buffer;
  br: Buffer;
  etag: string;
}

interface SendOptions {
  type: string;
  cacheControl: string;
  /** 200 unless told; only a 200 answers a matching If-None-Match with 304. */
  status?: number;
  /** Request headers the body depends on besides Accept-Encoding. */
  vary?: string;
}

/** Brotli when the client takes it, else gzip, else none: our preference, since browsers list gzip before br. */
function preferredEncoding(ctx: Context): 'br' | 'gzip' | undefined {
  // Koa drops codings refused with `;q=0`; `*` accepts anything, and gzip is what every client decodes.
  const accepted = ctx.acceptsEncodings();
  if (accepted.includes('br')) return 'br';
  if (accepted.includes('gzip') || accepted.includes('*')) return 'gzip';
  return undefined;
}

export function sendPrecompressed(ctx: Context, body: Precompressed, options: SendOptions): void {
  ctx.status = options.status ?? 200;
  ctx.set('Content-Type', options.type);
  ctx.set('Cache-Control', options.cacheControl);
  ctx.set('ETag', body.etag);
  // Set, not appended: the CORS middleware's `Vary: Origin` does not apply, since every origin gets `*`.
  ctx.set('Vary', options.vary ? `Accept-Encoding, ${options.vary}` : 'Accept-Encoding');
  if (ctx.status === 200 && ctx.fresh) {
    ctx.status = 304;
    return;
  }
  const encoding = preferredEncoding(ctx);
  if (encoding) ctx.set('Content-Encoding', encoding);
  ctx.body = encoding ? body[encoding] : body.identity;
}
