// Serves the built shopper embeds from dist/embed/ (`npm run build:embed`):
//   GET /sidebar.js?id=…&c=…                      the loader, with the brand and the asset path filled in
//   GET /embed/assets/{version}/app.js            the lazily loaded app
//   GET /embed/assets/{version}/strings/{lang}.json  the shopper-facing text of one language
// `version` is a hash of the app and strings, so those are cached for a year; the loader, whose URL changes with the
// snippet's 10-minute cache-buster, for 10 minutes. Everything is precompressed (brotli, gzip) once per build.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type Router from '@koa/router';
import type { Context } from 'koa';
import { HttpError } from '../http/errors.js';
import type { Services } from '../services.js';
import { registerEmbedDemoRoutes } from './demo.js';
import { projectRoot } from './root.js';

const JS = 'text/javascript; charset=utf-8';
const JSON_TYPE = 'application/json; charset=utf-8';
const LOADER_CACHE = 'public, max-age=600';
const IMMUTABLE = 'public, max-age=31536000, immutable';

interface Asset {
  raw: Buffer;
  gzip: Buffer;
  brotli: Buffer;
  etag: string;
}

function asset(body: string | Buffer): Asset {
  const raw = Buffer.from(body);
  return {
    raw,
    gzip: gzipSync(raw, { level: 9 }),
    brotli: brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
    etag: `"${createHash('sha256').update(raw).digest('base64url').slice(0, 22)}"`,
  };
}

/** A string as a JavaScript string body that is safe inside any kind of quotes, template literals included. */
export function jsStringBody(value: string): string {
  return value.replace(/[^A-Za-z0-9 _.,-]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The loader with the brand, its tooltip class and display name, and the versioned asset path filled in. */
export function fillLoader(template: string, brand: string, brandName: string, version: string): string {
  return template
    .split('__BRAND_CLASS__').join(brand[0]!.toUpperCase() + brand.slice(1))
    .split('__BRAND_NAME__').join(jsStringBody(brandName))
    .split('__ASSETS__').join(`embed/assets/${version}`)
    .split('__BRAND__').join(brand);
}

export interface EmbedBuild {
  version: string;
  loader: Asset;
  app: Asset;
  strings: Map<string, Asset>;
  builtAt: number;
}

/** Reads dist/embed/ (undefined when it has not been built) and prepares every response body. */
export function loadEmbedBuild(dir: string, brand: string, brandName: string): EmbedBuild | undefined {
  const loaderFile = join(dir, 'sidebar.js');
  const appFile = join(dir, 'app.js');
  if (!existsSync(loaderFile) || !existsSync(appFile)) return undefined;
  const app = readFileSync(appFile);
  const hash = createHash('sha256').update(app);
  const strings = new Map<string, Buffer>();
  for (const file of readdirSync(join(dir, 'strings')).filter((f) => /^[a-z]{2}\.json$/.test(f)).sort()) {
    const body = readFileSync(join(dir, 'strings', file));
    strings.set(file.slice(0, 2), body);
    hash.update(file).update(body);
  }
  const version = hash.digest('hex').slice(0, 12);
  return {
    version,
    loader: asset(fillLoader(readFileSync(loaderFile, 'utf8'), brand, brandName, version)),
    app: asset(app),
    strings: new Map([...strings].map(([lang, body]) => [lang, asset(body)])),
    builtAt: statSync(loaderFile).mtimeMs,
  };
}

function send(ctx: Context, body: Asset, type: string, cacheControl: string): void {
  ctx.set('Content-Type', type);
  ctx.set('Cache-Control', cacheControl);
  ctx.set('ETag', body.etag);
  ctx.set('Vary', 'Accept-Encoding');
  // Loaded by other sites' pages: readable cross-origin (the strings are fetched), embeddable under COEP.
  ctx.set('Access-Control-Allow-Origin', '*');
  ctx.set('Cross-Origin-Resource-Policy', 'cross-origin');
  ctx.status = 200;
  if (ctx.fresh) {
    ctx.status = 304;
    return;
  }
  // Our preference, not the client's order: browsers list gzip before br, yet brotli is smaller.
  const accepted = ctx.acceptsEncodings();
  const encoding = accepted.includes('br') ? 'br' : accepted.includes('gzip') ? 'gzip' : 'identity';
  if (encoding === 'br' || encoding === 'gzip') ctx.set('Content-Encoding', encoding);
  ctx.body = encoding === 'br' ? body.brotli : encoding === 'gzip' ? body.gzip : body.raw;
}

export function registerEmbedAssetRoutes(router: Router, services: Services): void {
  const { config, log } = services;
  const dir = join(projectRoot(), 'dist', 'embed');
  let build: EmbedBuild | undefined;
  let checked = 0;

  /** The build, read once; outside production re-read when `npm run build:embed` wrote a new one. */
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

  router.get('/sidebar.js', (ctx) => send(ctx, current().loader, JS, LOADER_CACHE));

  // An older loader (still in a cache) may ask for an older version: it gets the current files, cached briefly.
  const cacheFor = (version: string | undefined) => (version === current().version ? IMMUTABLE : LOADER_CACHE);

  router.get('/embed/assets/:version/app.js', (ctx) => send(ctx, current().app, JS, cacheFor(ctx.params.version)));

  router.get('/embed/assets/:version/strings/:file', (ctx) => {
    const lang = /^([a-z]{2})\.json$/.exec(ctx.params.file ?? '')?.[1];
    const strings = lang ? current().strings.get(lang) : undefined;
    if (!strings) throw new HttpError(404, 'No such language.');
    send(ctx, strings, JSON_TYPE, cacheFor(ctx.params.version));
  });

  registerEmbedDemoRoutes(router, services);
}
