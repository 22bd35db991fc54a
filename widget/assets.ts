// The widget's hand-written browser scripts (widget/assets/*.js, no build step). They are read from the project
// root, so the same files are found from the sources (tsx, vitest) and from dist/ after tsc.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export function projectRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('package.json not found above ' + fileURLToPath(import.meta.url));
    dir = parent;
  }
  return dir;
}

export interface InlineScript {
  source: string;
  /** The CSP source that allows exactly this inline script. */
  hash: string;
}

/**
 * Drops comment lines and indentation. The scripts are written for this: statements end with semicolons and no
 * string contains `//` or `/*`.
 */
export function compactScript(source: string): string {
  return source
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('//'))
    .join('\n');
}

export function cspHash(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

const scripts = new Map<string, InlineScript>();

export function inlineScript(name: 'slider' | 'configurator'): InlineScript {
  let script = scripts.get(name);
  if (!script) {
    const source = compactScript(readFileSync(join(projectRoot(), 'widget', 'assets', `${name}.js`), 'utf8'));
    script = { source, hash: cspHash(source) };
    scripts.set(name, script);
  }
  return script;
}
