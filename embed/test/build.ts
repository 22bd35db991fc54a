// For tests that need dist/embed/: builds it (`npm run build:embed`) when it is missing or older than its sources.
// Test files run in parallel workers, so one build at a time, under a lock directory.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../server/root.js';

const root = projectRoot();
export const EMBED_DIST = join(root, 'dist', 'embed');
const OUTPUTS = ['sidebar.js', 'app.js', 'form.js', 'strings/en.json', 'product.js'];

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}

function upToDate(): boolean {
  const sources = Math.max(newestSource(join(root, 'embed')), statSync(join(root, 'vite.config.ts')).mtimeMs);
  return OUTPUTS.every(
    (file) => existsSync(join(EMBED_DIST, file)) && statSync(join(EMBED_DIST, file)).mtimeMs >= sources,
  );
}

export async function ensureEmbedBuilt(): Promise<string> {
  const lock = join(root, 'dist', '.embed-build.lock');
  mkdirSync(join(root, 'dist'), { recursive: true });
  for (;;) {
    if (upToDate()) return EMBED_DIST;
    try {
      mkdirSync(lock);
    } catch {
      // Someone else is building; a lock older than two minutes is left over from a crash.
      const held = statSync(lock, { throwIfNoEntry: false });
      if (held && Date.now() - held.mtimeMs > 120_000) rmSync(lock, { recursive: true, force: true });
      await new Promise((ok) => setTimeout(ok, 250));
      continue;
    }
    try {
      if (!upToDate()) execFileSync('npm', ['run', '--silent', 'build:embed'], { cwd: root, stdio: 'pipe' });
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
}
