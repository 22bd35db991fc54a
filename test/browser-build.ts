// For tests that render pages with inline scripts: builds dist/browser/ (the Vite modes of vite.config.ts for
// widget/assets/*.ts and server/pages/browser/*.ts) when a script is missing or older than its source.
// Called once per test run from the global setup, before any worker starts.
import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../server/root.js';
import { BROWSER_ENTRIES } from '../vite.config.js';

export function ensureBrowserScriptsBuilt(): void {
  const root = projectRoot();
  const config = statSync(join(root, 'vite.config.ts')).mtimeMs;
  for (const [mode, source] of Object.entries(BROWSER_ENTRIES)) {
    const output = join(root, 'dist', 'browser', `${mode}.js`);
    const stale =
      !existsSync(output) || statSync(output).mtimeMs < Math.max(config, statSync(join(root, source)).mtimeMs);
    if (stale) execFileSync('npx', ['vite', 'build', '--mode', mode], { cwd: root, stdio: 'pipe' });
  }
}
