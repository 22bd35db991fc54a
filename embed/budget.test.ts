// The size budgets of the embed, checked like tests on every run: the loader that every page of every shop loads at
// most 1,100 B gzip (issue 22), the lazily loaded app at most 12,500 B gzip (with the origin labels and report
// links), form.js, which the app loads only for the consent pop-up or the review form (with its photo picker), at
// most 6,144 B gzip (issue 20), and product.js, the product block the loader adds on product pages, at most 3.5 KB
// gzip (no framework: the server renders the block, the chunk only fetches, swaps and wires; Preact alone would take
// more than that). Measured as served (loader filled in). Where the bytes go: `npx tsx bench/embed-bytes.ts`
// (BENCHMARKS.md, "Shopper embeds").
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
  it('loader ≤ 1,100 B gzip', () => {
    const served = fillLoader(readFileSync(join(dir, 'sidebar.js'), 'utf8'), 'service', 'Service', '0123456789ab');
    const size = sizes(served);
    console.info(`sidebar.js: ${size.gzip} B gzip, ${size.brotli} B brotli`);
    expect(size.gzip).toBeLessThanOrEqual(1100);
  });

  it('app ≤ 12,500 B gzip', () => {
    const size = sizes(readFileSync(join(dir, 'app.js')));
    console.info(`app.js: ${size.gzip} B gzip, ${size.brotli} B brotli`);
    expect(size.gzip).toBeLessThanOrEqual(12_500);
  });

  // Issue 20: the photo picker came into it, and the issue lets it grow to 6,144 B.
  it('form.js (consent pop-up and review form with its photo picker, loaded when needed) ≤ 6,144 B gzip', () => {
    const size = sizes(readFileSync(join(dir, 'form.js')));
    console.info(`form.js: ${size.gzip} B gzip, ${size.brotli} B brotli`);
    expect(size.gzip).toBeLessThanOrEqual(6 * KB);
  });

  it('product.js (the product block, loaded on product pages) ≤ 3.5 KB gzip', () => {
    const size = sizes(readFileSync(join(dir, 'product.js')));
    console.info(`product.js: ${size.gzip} B gzip, ${size.brotli} B brotli`);
    expect(size.gzip).toBeLessThanOrEqual(3.5 * KB);
  });

  it('each language file is small', () => {
    for (const lang of ['nl', 'en', 'de', 'fr', 'es', 'it', 'hr']) {
      expect(sizes(readFileSync(join(dir, 'strings', `${lang}.json`))).gzip).toBeLessThanOrEqual(2 * KB);
    }
  });
});
