// The browser scripts the pages inline, allowed by their hash in the page's Content Security Policy. They are
// TypeScript built by Vite (`npm run build:embed`, modes in vite.config.ts) into dist/browser/, read once and
// inlined, so a page needs no extra request and no 'unsafe-inline'. Apart from html.ts because it reads files
// under the project root: what only escapes text (error pages, e-mails) does not load it.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../root.js';
import { cspHash } from './html.js';

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
