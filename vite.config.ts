// Builds the shopper embeds into dist/embed/. IIFE output cannot be code-split and one build cannot hold several
// IIFE entries, so each bundle has its own mode, run one after the other (`npm run build:embed`):
//   --mode loader  → dist/embed/sidebar.js   (no framework; the server fills in brand and asset path)
//   --mode app     → dist/embed/app.js       (Preact; loaded lazily by the loader) and strings/<lang>.json
//   --mode more    → dist/embed/form.js      (consent pop-up and review form, with Preact's hooks; loaded by the app
//                                             when needed, using the app's Preact and context: embed/app/more-deps.ts)
//   --mode product → dist/embed/product.js   (the product block, no framework; loaded by the loader when the page has
//                                             one: embed/product/)
// The small scripts the server inlines into its own pages (allowed there by their CSP hash) are built the same way:
//   --mode slider | configurator | review-form → dist/browser/<mode>.js
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

const OUT = 'dist/embed';

/** Emits each language's strings as minified JSON, refusing a file whose keys differ from English. */
function strings(): Plugin {
  const dir = 'embed/strings';
  return {
    name: 'embed-strings',
    generateBundle() {
      const reference = Object.keys(JSON.parse(readFileSync(`${dir}/en.json`, 'utf8')))
        .sort()
        .join();
      for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
        const table = JSON.parse(readFileSync(`${dir}/${file}`, 'utf8')) as Record<string, string>;
        if (Object.keys(table).sort().join() !== reference) throw new Error(`${dir}/${file}: keys differ from en.json`);
        this.emitFile({ type: 'asset', fileName: `strings/${file}`, source: JSON.stringify(table) });
      }
    },
  };
}

const ENTRIES = {
  loader: { entry: 'embed/loader/sidebar.ts', file: 'sidebar.js' },
  app: { entry: 'embed/app/main.tsx', file: 'app.js' },
  more: { entry: 'embed/app/more.ts', file: 'form.js' },
  product: { entry: 'embed/product/main.ts', file: 'product.js' },
} as const;

/** In form.js, the modules it shares with the running app resolve to the file that receives them from the app. */
function shareFromApp(): Plugin {
  const deps = fileURLToPath(new URL('embed/app/more-deps.ts', import.meta.url));
  return {
    name: 'embed-share-from-app',
    enforce: 'pre',
    resolveId(source, importer) {
      // (Preact's hooks are bundled: they import `options` from 'preact', which is the app's.)
      if (/^preact(\/jsx-runtime)?$/.test(source)) return deps;
      if (importer?.includes('/embed/app/') && /^\.\/(env|ui)\.js$/.test(source)) return deps;
      return undefined;
    },
  };
}

/** Inline page scripts, read by server/http/html.ts. */
const BROWSER_OUT = 'dist/browser';
export const BROWSER_ENTRIES = {
  slider: 'widget/assets/slider.ts',
  configurator: 'widget/assets/configurator.ts',
  'review-form': 'server/pages/browser/review-form.ts',
} as const;

/**
 * The merchant dashboard (`--mode dashboard`): an ES-module app from dashboard/index.html, split per page, with
 * hashed file names under /dashboard/assets/ and a manifest, into dist/dashboard/ (served by server/dashboard/assets.ts).
 */
function dashboardConfig() {
  return {
    root: fileURLToPath(new URL('dashboard/', import.meta.url)),
    base: '/dashboard/',
    publicDir: false as const,
    logLevel: 'warn' as const,
    oxc: { jsx: { runtime: 'automatic' as const, importSource: 'preact', development: false } },
    define: { 'process.env.NODE_ENV': '"production"' },
    build: {
      outDir: fileURLToPath(new URL('dist/dashboard/', import.meta.url)),
      emptyOutDir: true,
      target: 'es2022',
      sourcemap: false,
      manifest: true,
      reportCompressedSize: false,
      // Every browser the dashboard supports preloads modules itself.
      modulePreload: { polyfill: false },
    },
  };
}

export default defineConfig(({ mode }) => {
  if (mode === 'dashboard') return dashboardConfig();
  const inline = BROWSER_ENTRIES[mode as keyof typeof BROWSER_ENTRIES];
  if (inline) {
    return {
      publicDir: false,
      logLevel: 'warn',
      build: {
        outDir: BROWSER_OUT,
        emptyOutDir: false,
        target: 'es2020',
        sourcemap: false,
        copyPublicDir: false,
        reportCompressedSize: false,
        lib: { entry: inline, formats: ['iife'], name: '_', fileName: () => `${mode}.js` },
      },
    };
  }
  const target = ENTRIES[mode as keyof typeof ENTRIES];
  if (!target)
    throw new Error(
      `vite build --mode ${Object.keys(ENTRIES).join('|')}|dashboard|${Object.keys(BROWSER_ENTRIES).join('|')} (got "${mode}")`,
    );
  return {
    publicDir: false,
    logLevel: 'warn',
    // Production output whatever NODE_ENV the caller has (vitest sets `test`, which would select dev JSX).
    oxc: { jsx: { runtime: 'automatic', importSource: 'preact', development: false } },
    define: { 'process.env.NODE_ENV': '"production"' },
    plugins: mode === 'app' ? [strings()] : mode === 'more' ? [shareFromApp()] : [],
    build: {
      outDir: OUT,
      // Never emptied: `tsc` also writes here the contracts the server shares with the embed (dist/embed/shared/).
      emptyOutDir: false,
      // ES2022 (class fields as written): every browser with <dialog>, which the pop-ups need, has it.
      target: 'es2022',
      sourcemap: false,
      copyPublicDir: false,
      reportCompressedSize: false,
      lib: { entry: target.entry, formats: ['iife'], name: '_', fileName: () => target.file },
    },
  };
});
