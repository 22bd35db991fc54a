// The dashboard's size budgets (issue 10), checked like tests on every run, on a fresh production build: the first
// load (the entry chunk and every chunk it imports statically) at most 50 KB gzip of JavaScript, and each page's
// chunk (with the chunks only it pulls in) at most 20 KB gzip. Every page is a chunk of its own (code-split).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../server/root.js';

const KB = 1024;
interface Chunk {
  file: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}
let out = '';
let manifest: Record<string, Chunk> = {};

beforeAll(() => {
  out = mkdtempSync(join(tmpdir(), 'dashboard-build-'));
  const root = projectRoot();
  execFileSync(
    join(root, 'node_modules', '.bin', 'vite'),
    ['build', '--mode', 'dashboard', '--outDir', out, '--emptyOutDir'],
    {
      cwd: root,
      stdio: 'pipe',
    },
  );
  manifest = JSON.parse(readFileSync(join(out, '.vite', 'manifest.json'), 'utf8')) as Record<string, Chunk>;
}, 120_000);
afterAll(() => rmSync(out, { recursive: true, force: true }));

const gzip = (file: string) => gzipSync(readFileSync(join(out, file)), { level: 9 }).length;

/** A chunk and every chunk it imports statically, as manifest keys. */
function closure(key: string, seen = new Set<string>()): Set<string> {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const dep of manifest[key]?.imports ?? []) closure(dep, seen);
  return seen;
}
const bytes = (keys: Iterable<string>) => [...keys].reduce((sum, key) => sum + gzip(manifest[key]!.file), 0);

describe('dashboard bundle budgets', () => {
  it('first load ≤ 50 KB gzip of JavaScript', () => {
    const entry = Object.keys(manifest).find((key) => manifest[key]!.isEntry)!;
    const size = bytes(closure(entry));
    console.info(`dashboard first load: ${size} B gzip`);
    expect(size).toBeLessThanOrEqual(50 * KB);
  });

  it('every page is its own chunk of ≤ 20 KB gzip', () => {
    const entry = Object.keys(manifest).find((key) => manifest[key]!.isEntry)!;
    const first = closure(entry);
    const pages = Object.keys(manifest).filter((key) => manifest[key]!.isDynamicEntry);
    expect(pages.map((p) => p.replace(/^pages\/|\.tsx$/g, '')).sort()).toEqual([
      'account',
      'google',
      'import',
      'integration',
      'invitations',
      'overview',
      'reviews',
      'sign-in',
      'team',
      'widget',
    ]);
    for (const page of pages) {
      const own = [...closure(page)].filter((key) => !first.has(key));
      const size = bytes(own);
      console.info(`dashboard ${page}: ${size} B gzip`);
      expect(size, page).toBeLessThanOrEqual(20 * KB);
    }
  });
});
