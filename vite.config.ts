// Builds the shopper embeds into dist/embed/. IIFE output cannot be code-split and one build cannot hold several
// IIFE entries, so each bundle has its own mode, run one after the other (`npm run build:embed`):
//   --mode loader  → dist/embed/sidebar.js   (no framework; the server fills in brand and asset path)
//   --mode app     → dist/embed/app.js       (Preact; loaded lazily by the loader) and strings/<lang>.json
import { readdirSync, readFileSync } from 'node:fs';
import { defineConfig, type Plugin } from 'vite';

const OUT = 'dist/embed';

/** Emits each language's strings as minified JSON, refusing a file whose keys differ from English. */
function strings(): Plugin {
  const dir = 'embed/strings';
  return {
    name: 'embed-strings',
    generateBundle() {
      const reference = Object.keys(JSON.parse(readFileSync(`${dir}/en.json`, 'utf8'))).sort().join();
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
} as const;

export default defineConfig(({ mode }) => {
  const target = ENTRIES[mode as keyof typeof ENTRIES];
  if (!target) throw new Error(`vite build --mode loader|app (got "${mode}")`);
  return {
    publicDir: false,
    logLevel: 'warn',
    // Production output whatever NODE_ENV the caller has (vitest sets `test`, which would select dev JSX).
    oxc: { jsx: { runtime: 'automatic', importSource: 'preact', development: false } },
    define: { 'process.env.NODE_ENV': '"production"' },
    plugins: mode === 'app' ? [strings()] : [],
    build: {
      outDir: OUT,
      // The loader runs first and starts from an empty directory; the app adds to it.
      emptyOutDir: mode === 'loader',
      target: 'es2020',
      sourcemap: false,
      copyPublicDir: false,
      reportCompressedSize: false,
      lib: { entry: target.entry, formats: ['iife'], name: '_', fileName: () => target.file },
    },
  };
});
