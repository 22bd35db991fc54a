// HTML the server writes itself: escaping, and the inline scripts and styles its strict Content Security Policies
// allow by hash. The scripts are TypeScript built by Vite (`npm run build:embed`, modes in vite.config.ts) into
// dist/browser/, read once and inlined, so a page needs no extra request and no 'unsafe-inline'.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../root.js';

/** Text for HTML element content and quoted attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The CSP source that allows exactly this inline script or style. */
export function cspHash(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

type BrowserScriptName = 'slider' | 'configurator' | 'review-form';

interface InlineScript {
  source: string;
  /** The CSP source that allows exactly this inline script. */
  hash: string;
}

const BROWSER_DIST = join(projectRoot(), 'dist', 'browser');

const scripts = new Map<BrowserScriptName, InlineScript>();

export function inlineScript(name: BrowserScriptName): InlineScript {
  let script = scripts.get(name);
  if (!script) {
    const file = join(BROWSER_DIST, `${name}.js`);
    if (!existsSync(file)) throw new Error(`${file} is missing: run \`npm run build:embed\``);
    const source = readFileSync(file, 'utf8').trimEnd();
    // Inlined into <script>: the text must not be able to end its element.
    if (/<\/script/i.test(source)) throw new Error(`${file} contains "</script" and cannot be inlined`);
    script = { source, hash: cspHash(source) };
    scripts.set(name, script);
  }
  return script;
}
