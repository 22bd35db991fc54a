// Serves the built shopper embeds from dist/embed/ (`npm run build:embed`):
//   GET /sidebar.js?id=…&c=…                      the loader, with the brand and the asset path filled in
//   GET /embed/assets/{version}/app.js            the lazily loaded app
//   GET /embed/assets/{version}/form.js           the app's second bundle (consent pop-up, review form), when needed
//   GET /embed/assets/{version}/strings/{lang}.json  the shopper-facing text of one language
//   GET /embed/assets/{version}/product.js        the product block, loaded by the loader on product pages
// `version` is a hash of the app, form.js, strings and product.js, so those are cached for a year; the loader, whose
// URL changes with the snippet's 10-minute cache-buster, for 10 minutes. Everything is precompressed (brotli, gzip) once per build.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Context } from 'koa';
import { HttpError } from '../http/errors.js';
import { sendPrecompressed, type Precompressed } from '../http/precompressed.js';
import type { Services } from '../services.js';
import { projectRoot } from '../root.js';
import { brandClass } from '../../embed/shared/brand.js';

export const JS = 'text/javascript; charset=utf-8';
export const JSON_TYPE = 'application/json; charset=utf-8';
export const LOADER_CACHE = 'public, max-age=600';
export const IMMUTABLE = 'public, max-age=31536000, immutable';

type Asset = Precompressed;

function asset(body: string | Buffer): Asset {
  const identity = Buffer.from(body);
  return {
    identity,
    gzip: gzipSync(identity, { level: 9 }),
    br: brotliCompressSync(identity, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
    etag: `"${createHash('sha256').update(identity).digest('base64url').slice(0, 22)}"`,
  };
}

/** A string as a JavaScript string body that is safe inside any kind of quotes, template literals included. */
function jsStringBody(value: string): string {
  return value.replace(/[^A-Za-z0-9 _.,-]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The loader with the brand, its tooltip class and display name, and the versioned asset path filled in. */
export function fillLoader(template: string, brand: string, brandName: string, version: string): string {
  return template
    .split('__BRAND_CLASS__')
    .join(brandClass(brand))
    .split('__BRAND_NAME__')
    .join(jsStringBody(brandName))
    .split('__ASSETS__')
    .join(`embed/assets/${version}`)
    .split('__BRAND__')
    .join(brand);
}

interface EmbedBuild {
  version: string;
  loader: Asset;
  app: Asset;
  form: Asset;
  strings: Map<string, Asset>;
  builtAt: number;
  product: Asset;
}

/** Reads dist/embed/ (undefined when it has not been built) and prepares every response body. */
function loadEmbedBuild(dir: string, brand: string, brandName: string): EmbedBuild | undefined {
  const loaderFile = join(dir, 'sidebar.js');
  const appFile = join(dir, 'app.js');
  const formFile = join(dir, 'form.js');
  const productFile = join(dir, 'product.js');
  if (![loaderFile, appFile, formFile, productFile].every((file) => existsSync(file))) return undefined;
  const app = readFileSync(appFile);
  const form = readFileSync(formFile);
  const hash = createHash('sha256').update(app).update(form);
  const strings = new Map<string, Buffer>();
  for (const file of readdirSync(join(dir, 'strings'))
    .filter((f) => /^[a-z]{2}\.json$/.test(f))
    .sort()) {
    const body = readFileSync(join(dir, 'strings', file));
    strings.set(file.slice(0, 2), body);
    hash.update(file).update(body);
  }
  const product = readFileSync(productFile);
  hash.update(product);
  const version = hash.digest('hex').slice(0, 12);
  return {
    version,
    loader: asset(fillLoader(readFileSync(loaderFile, 'utf8'), brand, brandName, version)),
    app: asset(app),
    form: asset(form),
    strings: new Map([...strings].map(([lang, body]) => [lang, asset(body)])),
    builtAt: statSync(loaderFile).mtimeMs,
    product: asset(product),
  };
}

export function sendAsset(ctx: Context, body: Asset, type: string, cacheControl: string): void {
  // Loaded by other sites' pages: embeddable under COEP (readable cross-origin through the embed's CORS, routes.ts).
  ctx.set('Cross-Origin-Resource-Policy', 'cross-origin');
  sendPrecompressed(ctx, body, { type, cacheControl });
}

/** The current build, read once; outside production re-read when `npm run build:embed` wrote a new one. */
export function embedBuild(services: Pick<Services, 'config' | 'log'>): () => EmbedBuild {
  const { config, log } = services;
  const dir = join(projectRoot(), 'dist', 'embed');
  let build: EmbedBuild | undefined;
  let checked = 0;

  const current = (): EmbedBuild => {
    const now = Date.now();
    if (!build || (!config.production && now - checked > 1000)) {
      checked = now;
      const builtAt = existsSync(join(dir, 'sidebar.js')) ? statSync(join(dir, 'sidebar.js')).mtimeMs : 0;
      if (!build || builtAt !== build.builtAt) {
        build = loadEmbedBuild(dir, config.brand, config.brandName);
        if (build) log.info({ version: build.version }, 'embed assets loaded');
      }
    }
    if (!build) throw new HttpError(503, 'The embed is not built: run `npm run build:embed`.');
    return build;
  };
  return current;
}
