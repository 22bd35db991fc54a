// The size budgets of the embed, checked like tests on every run: the loader that every page of every shop loads at
// most 1.5 KB gzip, the lazily loaded app at most 15 KB gzip. Measured as served (loader filled in).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureEmbedBuilt } from './test/build.js';
import { fillLoader } from '../server/embed/assets.js';

const KB = 1024;
let dir = '';
beforeAll(async () => {
  dir = await ensureEmbedBuilt();
}, 120_000);

function sizes(body: string | Buffer) {
  return { gzip: gzipSync(body, { level: 9 }).length, brotli: brotliCompressSync(body).length };
}

describe('bundle budgets', () => {
  it('loader ≤ 1.5 KB gzip', () => {
    const served = fillLoader(readFileSync(join(dir, 'sidebar.js'), 'utf8'), 'service', 'Service', '0123456789ab');
    const size = sizes(served);
    console.info(`sidebar.js: ${size.gzip} B gzip, ${size.brotli} B brotli`);
    expect(size.gzip).toBeLessThanOrEqual(1.5 * KB);
  });

  it('app ≤ 15 KB gzip', () => {
    const size = sizes(readFileSync(join(dir, 'app.js')));
    console.info(`app.js: ${size.gzip} B gzip, ${size.brotli} B brotli`);
    expect(size.gzip).toBeLessThanOrEqual(15 * KB);
  });

  it('each language file is small', () => {
    for (const lang of ['nl', 'en', 'de', 'fr', 'es', 'it', 'hr']) {
      expect(sizes(readFileSync(join(dir, 'strings', `${lang}.json`))).gzip).toBeLessThanOrEqual(2 * KB);
    }
  });
});
