// Serves the merchant dashboard's browser app, built by `vite build --mode dashboard` into dist/dashboard/:
//   GET /dashboard                      → 308 to /dashboard/ (the address the app is opened at)
//   GET /dashboard/assets/{file}        the hashed files (JS chunks, CSS): cached for a year, immutable
//   GET /dashboard/ and /dashboard/{page}  the app's HTML (any one segment but api and sign-in), never cached, so a
//                                       deep link (/dashboard/reviews) opens the app and a new build shows at once
// Every HTML answer carries the dashboard's CSP (no inline script or style, frames and calls of our origin only) and
// refuses to be framed. Bodies are compressed once per build (http/precompressed.ts).
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type Router from '@koa/router';
import type { Context, Next } from 'koa';
import { HttpError } from '../http/errors.js';
import { sendPrecompressed, type Precompressed } from '../http/precompressed.js';
import type { Services } from '../services.js';
import { projectRoot } from '../root.js';

// frame-src 'self': the Widget page frames the sidebar preview (/webshops/{id}/sidebar-preview), our own page.
export const DASHBOARD_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "frame-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";
const HTML_CACHE = 'no-cache';
const IMMUTABLE = 'public, max-age=31536000, immutable';
const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

interface DashboardBuild {
  html: Precompressed;
  /** By file name under assets/: only what the build wrote is ever served. */
  assets: Map<string, { body: Precompressed; type: string }>;
  builtAt: number;
}

function precompress(body: Buffer): Precompressed {
  return {
    identity: body,
    gzip: gzipSync(body, { level: 9 }),
    br: brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
    etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`,
  };
}

function loadBuild(dir: string): DashboardBuild | undefined {
  const index = join(dir, 'index.html');
  if (!existsSync(index)) return undefined;
  const assets = new Map<string, { body: Precompressed; type: string }>();
  const assetDir = join(dir, 'assets');
  for (const file of existsSync(assetDir) ? readdirSync(assetDir) : []) {
    const type = TYPES[extname(file)];
    if (type) assets.set(file, { body: precompress(readFileSync(join(assetDir, file))), type });
  }
  return { html: precompress(readFileSync(index)), assets, builtAt: statSync(index).mtimeMs };
}

/** The current build, read once; outside production read again when a new build was written. */
function dashboardBuild(services: Pick<Services, 'config' | 'log'>): () => DashboardBuild {
  const { config, log } = services;
  const dir = join(projectRoot(), 'dist', 'dashboard');
  let build: DashboardBuild | undefined;
  let checked = 0;
  return () => {
    const now = Date.now();
    if (!build || (!config.production && now - checked > 1000)) {
      checked = now;
      const index = join(dir, 'index.html');
      const builtAt = existsSync(index) ? statSync(index).mtimeMs : 0;
      if (!build || builtAt !== build.builtAt) {
        build = loadBuild(dir);
        if (build) log.info({ files: build.assets.size }, 'dashboard assets loaded');
      }
    }
    if (!build) throw new HttpError(503, 'The dashboard is not built: run `npm run build:embed`.');
    return build;
  };
}

/** The headers of every page of the dashboard. */
function setPageHeaders(ctx: Context): void {
  ctx.set('Content-Security-Policy', DASHBOARD_CSP);
  ctx.set('X-Frame-Options', 'DENY');
  ctx.set('Referrer-Policy', 'same-origin');
}

/** Paths under /dashboard/ that are not the app's: the JSON API and the sign-in pages (accounts/routes.ts). */
const notTheApp = (rest: string): boolean => /^(api|sign-in)(\/|$)/.test(rest);

export function registerDashboardAssetRoutes(router: Router, services: Pick<Services, 'config' | 'log'>): void {
  const current = dashboardBuild(services);

  router.get('/dashboard/assets/:file', (ctx) => {
    const asset = current().assets.get(ctx.params.file ?? '');
    if (!asset) throw new HttpError(404, 'No such file.');
    ctx.set('Cross-Origin-Resource-Policy', 'same-origin');
    sendPrecompressed(ctx, asset.body, { type: asset.type, cacheControl: IMMUTABLE });
  });

  const page = (ctx: Context) => {
    setPageHeaders(ctx);
    sendPrecompressed(ctx, current().html, { type: 'text/html; charset=utf-8', cacheControl: HTML_CACHE });
  };
  // One path segment at most: the JSON API and the sign-in pages (deeper, or taken below) never reach these.
  router.get('/dashboard', (ctx) => {
    if (ctx.path.endsWith('/')) return page(ctx);
    ctx.status = 308;
    ctx.redirect(`/dashboard/${ctx.querystring ? `?${ctx.querystring}` : ''}`);
  });
  router.get('/dashboard/:page', (ctx: Context, next: Next) => (notTheApp(ctx.params.page ?? '') ? next() : page(ctx)));
}
