// Sending the widget's HTML pages: compressed once when cached (brotli, gzip), with a weak ETag for
// conditional requests, a short public Cache-Control and the page's own Content Security Policy.
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Context } from 'koa';
import { sendPrecompressed, type Precompressed } from '../http/precompressed.js';

export interface PreparedPage extends Precompressed {
  csp: string;
  /** What the page holds in memory, for the cache's byte bound. */
  bytes: number;
}

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * Compresses a page once, for every request that the cache then serves. Brotli's best quality takes tens of
 * milliseconds: it runs on libuv's thread pool, not in the event loop.
 */
export async function preparePage(html: string, csp: string): Promise<PreparedPage> {
  const identity = Buffer.from(html, 'utf8');
  const [gzip, br] = await Promise.all([
    gzipAsync(identity, { level: 9 }),
    brotliAsync(identity, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: identity.length },
    }),
  ]);
  const etag = `W/"${createHash('sha256').update(identity).digest('base64url').slice(0, 27)}"`;
  return { identity, gzip, br, etag, csp, bytes: identity.length + gzip.length + br.length + csp.length + 200 };
}

interface SendOptions {
  status?: number;
  cacheControl: string;
  /** Request headers the page depends on besides Accept-Encoding. */
  vary?: string;
}

export function sendPage(ctx: Context, page: PreparedPage, options: SendOptions): void {
  ctx.set('Content-Security-Policy', page.csp);
  sendPrecompressed(ctx, page, { ...options, type: 'text/html; charset=utf-8' });
}
