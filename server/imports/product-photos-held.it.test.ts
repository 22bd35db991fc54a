// With PHOTO_REVIEW=operator, photos of imported product-only reviews wait on the operator's held-photo list
// (photos/admin.ts) like a shop review's: listed with their shop, product and an excerpt of the review; "show" serves
// them on the product fragment and widget, "remove" deletes their files and record through the photo worker.
// Real database, a real HTTP server holding the photo, the real photo pipeline (sharp); the jobs run by the test.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { photoWithMetadata } from '../../test/photo-fixtures.js';
import { drainPhotoTasks } from '../photos/jobs.js';
import type { Webshop } from '../webshops/store.js';
import { drainImportPhotos } from './photo-import.js';
import type { ImportedProductReview } from './product-review-store.js';
import { drainImports } from './service.js';

let server: Server;
let base: string;
let jpeg: Buffer;

beforeAll(async () => {
  jpeg = await photoWithMetadata('jpeg');
  server = createServer((req, res) => {
    if (req.url?.startsWith('/photo')) {
      res.writeHead(200, { 'content-type': 'image/jpeg' });
      res.end(jpeg);
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((ok) => server.close(ok));
});

/** A Judge.me export (product reviews only), every row published at the source. */
function judgeMeFile(rows: { text: string; url: string; name: string }[]): Uint8Array {
  const header =
    'title,body,rating,review_date,source,curated,reviewer_name,reviewer_email,product_id,product_handle,reply,reply_date,picture_urls,location';
  const lines = rows.map(
    (r) =>
      `Title,${r.text},5,2024-01-10 10:00:00 UTC,web,ok,${r.name},${r.name.toLowerCase()}@example.com,7001,warm-sweater,,,"${r.url}",Utrecht`,
  );
  return new TextEncoder().encode(`${[header, ...lines].join('\n')}\n`);
}

interface HeldItem {
  id: string;
  review: number | null;
  product_review: string | null;
  webshop: number;
  product: { id: string; name: string } | null;
  excerpt: string;
  url: string;
}

describe('PHOTO_REVIEW=operator: photos of imported product reviews', () => {
  let t: TestApp;
  let dataDir: string;
  let shop: Webshop;
  const longText = `Warm and soft ${'really '.repeat(40)}lovely`;

  const reviewOf = async (text: string) =>
    (await t.db.collection<ImportedProductReview>('imported_product_reviews').findOne({ shopId: shop.id, text }))!;
  const heldList = async (): Promise<HeldItem[]> => (await (await t.admin('/admin/api/photos/held')).json()).photos;
  const filesOf = (id: string) => readdirSync(join(dataDir, 'photos')).filter((f) => f.startsWith(id));
  const surfaces = async () => [
    await (await t.fetch(`/webshops/${shop.id}/products/reviews.html?product=7001&lang=en`)).text(),
    await (await t.fetch(`/webshops/widget_html?id=${shop.id}&layout=product&product=7001&language=en`)).text(),
  ];

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'import-product-photos-held-'));
    t = await startTestApp({ DATA_DIR: dataDir, IMPORT_PHOTO_ALLOWED_HOSTS: '127.0.0.1', PHOTO_REVIEW: 'operator' });
    shop = await t.createShop();
    const form = new FormData();
    const file = judgeMeFile([
      { text: longText, url: `${base}/photo-keep.jpg`, name: 'Hanna' },
      { text: 'Not a photo of the sweater', url: `${base}/photo-drop.jpg`, name: 'Otto' },
    ]);
    form.append('file', new Blob([new Uint8Array(file)]), 'judgeme.csv');
    const res = await t.admin(`/admin/api/webshops/${shop.id}/imports`, { method: 'POST', body: form });
    expect(res.status, await res.clone().text()).toBe(202);
    await drainImports(t.services, 'test-worker');
    await drainImportPhotos(t.services, 'photo-worker');
    await drainPhotoTasks(t.services);
  });
  afterAll(async () => {
    await t.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('holds them after encoding, unserved, on the operator list with the shop, product and an excerpt', async () => {
    const keep = await reviewOf(longText);
    const drop = await reviewOf('Not a photo of the sweater');
    expect(keep.status).toBe('published');
    expect(keep.photos?.map((p) => p.state)).toEqual(['held']);
    expect(drop.photos?.map((p) => p.state)).toEqual(['held']);
    for (const r of [keep, drop]) expect((await t.fetch(`/photos/${r.photos![0]!.id}.webp`)).status).toBe(404);
    for (const html of await surfaces()) expect(html).not.toContain('/photos/');

    const list = await heldList();
    expect(list.map((p) => p.id).sort()).toEqual([keep.photos![0]!.id, drop.photos![0]!.id].sort());
    const item = list.find((p) => p.id === keep.photos![0]!.id)!;
    expect(item).toMatchObject({
      review: null,
      product_review: keep._id,
      webshop: shop.id,
      product: { id: '7001', name: keep.product.name },
    });
    // At most 200 characters, cut with an ellipsis.
    expect(item.excerpt.length).toBe(200);
    expect(item.excerpt.startsWith('Warm and soft really')).toBe(true);
    expect(item.excerpt.endsWith('…')).toBe(true);
    expect(list.find((p) => p.id === drop.photos![0]!.id)!.excerpt).toBe('Not a photo of the sweater');
    // The operator can look at it before deciding.
    const look = await t.admin(`/admin/api/photos/${item.id}`);
    expect(look.status).toBe(200);
    expect(look.headers.get('content-type')).toBe('image/webp');
  });

  it('"show" serves it on the product fragment and widget', async () => {
    const keep = await reviewOf(longText);
    const id = keep.photos![0]!.id;
    const res = await t.admin(`/admin/api/photos/${id}/decision`, { method: 'POST', json: { action: 'show' } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ id, state: 'shown' });
    const shown = (await t.services.productReviews.get(keep._id))!.photos![0]!;
    expect(shown.state).toBe('shown');
    expect((await t.fetch(`/photos/${id}.webp`)).status).toBe(200);
    expect((await t.fetch(`/photos/${id}-320.webp`)).status).toBe(200);
    for (const html of await surfaces()) {
      expect(html).toContain(
        `<img src="${t.services.config.baseUrl}/photos/${id}-320.webp" width="${shown.thumbWidth}" height="${shown.thumbHeight}" alt="Photo 1 of 1 by Hanna" loading="lazy" decoding="async"/>`,
      );
    }
    expect((await heldList()).map((p) => p.id)).not.toContain(id);
    // Decided once: a second decision finds nothing held.
    const again = await t.admin(`/admin/api/photos/${id}/decision`, { method: 'POST', json: { action: 'remove' } });
    expect(again.status).toBe(404);
    expect((await t.fetch(`/photos/${id}.webp`)).status).toBe(200);
  });

  it('"remove" takes it off and the queued deletion removes its files and record', async () => {
    const drop = await reviewOf('Not a photo of the sweater');
    const id = drop.photos![0]!.id;
    expect(filesOf(id)).toHaveLength(2);
    const res = await t.admin(`/admin/api/photos/${id}/decision`, { method: 'POST', json: { action: 'remove' } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ id, state: 'removed' });
    expect((await t.services.productReviews.get(drop._id))!.photos!.map((p) => p.state)).toEqual(['removed']);
    expect((await t.fetch(`/photos/${id}.webp`)).status).toBe(404);
    expect(await t.services.photos.hasTask('delete', id)).toBe(true);
    await drainPhotoTasks(t.services);
    expect(filesOf(id)).toEqual([]);
    expect(await t.services.photos.get(id)).toBeNull();
    expect(await heldList()).toEqual([]);
    for (const html of await surfaces()) expect(html).not.toContain(`/photos/${id}`);
  });

  it('audits both decisions against the product review', async () => {
    const trail = await t.db
      .collection<{ action: string; target: string | null; shopId: number }>('audit_log')
      .find({ shopId: shop.id, action: { $in: ['photo.shown', 'photo.removed'] } })
      .toArray();
    const keep = await reviewOf(longText);
    expect(trail.map((e) => [e.action, e.target]).sort()).toEqual(
      [
        ['photo.removed', `product_review:${(await reviewOf('Not a photo of the sweater'))._id}`],
        ['photo.shown', `product_review:${keep._id}`],
      ].sort(),
    );
  });
});
