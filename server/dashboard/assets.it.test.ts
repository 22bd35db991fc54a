// The dashboard's files as a browser gets them: the app's HTML at /dashboard/ and at every page's address, with the
// CSP and framing headers of the contract and no caching; the hashed files cached for a year; the API and the
// sign-in pages never answered with the app.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { projectRoot } from '../root.js';
import { DASHBOARD_CSP } from './assets.js';

const root = projectRoot();

function newest(dir: string): number {
  return Math.max(
    0,
    ...readdirSync(dir, { withFileTypes: true }).map((e) =>
      e.isDirectory() ? newest(join(dir, e.name)) : statSync(join(dir, e.name)).mtimeMs,
    ),
  );
}

/** Builds dist/dashboard/ when it is missing or older than dashboard/ (one build at a time across test files). */
async function ensureDashboardBuilt(): Promise<void> {
  const index = join(root, 'dist', 'dashboard', 'index.html');
  const fresh = () => existsSync(index) && statSync(index).mtimeMs >= newest(join(root, 'dashboard'));
  const lock = join(root, 'dist', '.dashboard-build.lock');
  mkdirSync(join(root, 'dist'), { recursive: true });
  while (!fresh()) {
    try {
      mkdirSync(lock);
    } catch {
      const held = statSync(lock, { throwIfNoEntry: false });
      if (held && Date.now() - held.mtimeMs > 120_000) rmSync(lock, { recursive: true, force: true });
      await new Promise((ok) => setTimeout(ok, 250));
      continue;
    }
    try {
      if (!fresh())
        execFileSync(join(root, 'node_modules', '.bin', 'vite'), ['build', '--mode', 'dashboard'], {
          cwd: root,
          stdio: 'pipe',
        });
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
}

let t: TestApp;
beforeAll(async () => {
  await ensureDashboardBuilt();
  t = await startTestApp();
}, 120_000);
afterAll(() => t.close());

function expectPageHeaders(res: Response) {
  expect(res.headers.get('content-security-policy')).toBe(DASHBOARD_CSP);
  expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  expect(res.headers.get('x-frame-options')).toBe('DENY');
  expect(res.headers.get('referrer-policy')).toBe('same-origin');
}

describe('the dashboard app', () => {
  it('is served at /dashboard/ and at every page address, with its CSP, never cached', async () => {
    for (const path of [
      '/dashboard/',
      '/dashboard/reviews',
      '/dashboard/team?shop=3',
      '/dashboard/account',
      '/dashboard/no-such-page',
    ]) {
      const res = await t.fetch(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expectPageHeaders(res);
      const html = await res.text();
      expect(html).toContain('<div id="app"></div>');
      // Nothing inline for the CSP to refuse.
      expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>|<style|\sstyle=/);
    }
  });

  it('sends /dashboard to /dashboard/, keeping the query', async () => {
    const res = await t.fetch('/dashboard?shop=2', { redirect: 'manual' });
    expect(res.status).toBe(308);
    expect(res.headers.get('location')).toBe('/dashboard/?shop=2');
  });

  it('serves the hashed files for a year, compressed, and nothing else under assets/', async () => {
    const html = await (await t.fetch('/dashboard/')).text();
    const script = /<script type="module"[^>]*src="(\/dashboard\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    const style = /<link rel="stylesheet"[^>]*href="(\/dashboard\/assets\/[^"]+\.css)"/.exec(html)?.[1];
    expect(script).toBeTruthy();
    expect(style).toBeTruthy();
    const js = await t.fetch(script!, { headers: { 'accept-encoding': 'gzip' } });
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(js.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(js.headers.get('content-encoding')).toBe('gzip');
    const css = await t.fetch(style!);
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
    for (const path of [
      '/dashboard/assets/nothing.js',
      '/dashboard/assets/..%2Findex.html',
      '/dashboard/assets/.vite',
    ]) {
      expect((await t.fetch(path)).status, path).toBe(404);
    }
  });

  it('leaves the JSON API and the sign-in pages to their own routes', async () => {
    const api = await t.fetch('/dashboard/api/me');
    expect(api.status).toBe(401);
    expect(api.headers.get('content-type')).toContain('application/json');
    const link = await t.fetch('/dashboard/sign-in/not-a-real-token');
    expect(await link.text()).not.toContain('<div id="app">');
    const post = await t.fetch('/dashboard/reviews', { method: 'POST' });
    expect(post.status).toBe(405);
  });
});
