// The frame around every /api endpoint: it names the endpoint's error envelope, authenticates the webshop by
// `id` + `code`, applies the per-shop rate limit and turns thrown ClassicErrors into `{status:"error"}` bodies
// (or, for the XML feed, into the same rules in XML).
import type { Context, Middleware } from 'koa';
import { ClassicError, sendError, type Envelope } from './errors.js';
import { parseId, safeEqualDigest, secretDigest } from './credentials.js';
import { enforceLimit, TOO_MANY_REQUESTS, type RateLimiter } from './rate-limit.js';
import { XML_CONTENT_TYPE, XmlDocument } from './xml.js';
import { readFields, type Fields } from './body.js';
import { JsonText } from './json-text.js';

export const MESSAGES = {
  missing: 'Not all obligated variables are set.',
  wrongCredentials: 'Incorrect authentication credentials.',
  tooMany: TOO_MANY_REQUESTS,
  unexpected: (brandName: string) => `Unexpected error while processing. Please contact ${brandName}.`,
} as const;

/**
 * What classic() reads of a shop. The shop's type is the caller's (webshops/model.ts): plumbing names no feature,
 * and a reader of this frame meets no store.
 */
interface ShopCredentials {
  id: number;
  code: string;
}

export interface ClassicDeps<S extends ShopCredentials> {
  webshops: { get(id: number): Promise<S | null> };
  shopLimiter: RateLimiter;
}

type AuthOutcome<S> = { ok: true; shop: S } | { ok: false; reason: 'missing' | 'invalid' };

// A code to compare against when the shop does not exist, so both paths take the same time.
const NO_SHOP_DIGEST = secretDigest('0'.repeat(32));
// The digest of each cached shop's code, kept with the cached object (a rotated code comes with a new object).
const codeDigests = new WeakMap<ShopCredentials, Buffer>();

function codeDigest(shop: ShopCredentials): Buffer {
  let digest = codeDigests.get(shop);
  if (!digest) {
    digest = secretDigest(shop.code);
    codeDigests.set(shop, digest);
  }
  return digest;
}

const given = (value: unknown) => value !== undefined && value !== '';

/** Checks `id` + `code` from a parameter source (query, or query merged with body). */
async function authenticate<S extends ShopCredentials>(
  webshops: ClassicDeps<S>['webshops'],
  params: Fields,
): Promise<AuthOutcome<S>> {
  const rawId = params.id;
  const code = params.code;
  if (!given(rawId) || !given(code)) return { ok: false, reason: 'missing' };
  const id = parseId(rawId);
  if (id === undefined || typeof code !== 'string') return { ok: false, reason: 'invalid' };
  const shop = await webshops.get(id);
  const matches = safeEqualDigest(code, shop ? codeDigest(shop) : NO_SHOP_DIGEST);
  return shop && matches ? { ok: true, shop } : { ok: false, reason: 'invalid' };
}

function queryFields(ctx: Context): Fields {
  return Object.assign(Object.create(null) as Fields, ctx.query);
}

interface ClassicOptions {
  /** Fields returned empty on error, e.g. `{ ratings: [] }`. */
  empty: Record<string, unknown>;
  /** The endpoint answers XML (the product review feed): errors in XML too; the handler returns an XmlDocument. */
  xml?: boolean;
  /** Read the body and merge it over the query (Add invitation); value is the byte limit. */
  bodyLimit?: number;
  /** How auth failures are answered; default: HTTP 200 with the spec's messages. */
  unauthorized?: { status: number; missingStatus?: number; message?: string };
}

interface ClassicRequest<S> {
  shop: S;
  /** Query parameters, merged with body fields when the endpoint reads a body. */
  params: Fields;
}

/**
 * Wraps a classic endpoint handler. The handler returns the success body without `status` (or the whole body as
 * JsonText, `status` included, when it is served from a cache, or an XmlDocument for an XML endpoint); it throws
 * ClassicError for application errors and HttpError for transport-level ones.
 */
export function classic<S extends ShopCredentials>(
  deps: ClassicDeps<S>,
  options: ClassicOptions,
  handler: (ctx: Context, req: ClassicRequest<S>) => Promise<Record<string, unknown> | JsonText | XmlDocument>,
): Middleware {
  const envelope: Envelope = options.xml ? { style: 'xml' } : { style: 'classic', empty: options.empty };

  /** Authenticates and counts the request against its shop's limit; answers a failure itself (undefined). */
  const admit = async (ctx: Context, params: Fields): Promise<S | undefined> => {
    const auth = await authenticate(deps.webshops, params);
    if (!auth.ok) {
      const message =
        options.unauthorized?.message ?? (auth.reason === 'missing' ? MESSAGES.missing : MESSAGES.wrongCredentials);
      const status =
        auth.reason === 'missing'
          ? (options.unauthorized?.missingStatus ?? options.unauthorized?.status ?? 200)
          : (options.unauthorized?.status ?? 200);
      sendError(ctx, status, message);
      return undefined;
    }
    enforceLimit(deps.shopLimiter, `shop:${auth.shop.id}`);
    return auth.shop;
  };

  return async (ctx) => {
    ctx.state.envelope = envelope;
    const params = queryFields(ctx);
    let shop: S | undefined;
    if (options.bodyLimit !== undefined) {
      // Credentials in the query are checked (and the shop's limit applied) before a large body is read, so a
      // stranger's body is never parsed. Credentials in the body need the (capped) parser to run first.
      if (given(params.id) && given(params.code)) {
        shop = await admit(ctx, params);
        if (!shop) return;
      }
      const body = await readFields(ctx, options.bodyLimit);
      // Body fields win, except that credentials given in the query stay as they are.
      for (const [k, v] of Object.entries(body)) {
        if ((k === 'id' || k === 'code') && k in params) continue;
        params[k] = v;
      }
    }
    shop ??= await admit(ctx, params);
    if (!shop) return;
    try {
      const result = await handler(ctx, { shop, params });
      if (result instanceof XmlDocument) {
        ctx.body = result.text;
        ctx.set('Content-Type', XML_CONTENT_TYPE);
      } else if (result instanceof JsonText) {
        ctx.type = 'application/json';
        ctx.body = result.text;
      } else if (ctx.body === undefined || ctx.body === null) ctx.body = { status: 'success', ...result };
    } catch (err) {
      if (err instanceof ClassicError) sendError(ctx, 200, err.message);
      else throw err;
    }
  };
}
