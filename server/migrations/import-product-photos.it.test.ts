// The start-up backfill of photos of imports finished by versions that fetched none, or none of product reviews
// (server/migrations/import-product-photos.ts): their URLs, stored on the reviews, are fetched once, a photo fetched
// before is not fetched again, and a second run queues nothing.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { photoWithMetadata } from '../../test/photo-fixtures.js';
import { drainImportPhotos } from '../imports/photo-import.js';
import type { ImportedProductReview } from '../imports/product-review-store.js';
import { drainImports } from '../imports/service.js';
import { drainPhotoTasks } from '../photos/jobs.js';
import type { Review } from '../reviews/model.js';
import type { Webshop } from '../webshops/store.js';
import { migrateImportProductPhotos } from './import-product-photos.js';

const MARKER = 'imports.product_photos';

let t: TestApp;
let dataDir: string;
let server: Server;
let base: string;
const requests: string[] = [];

beforeAll(async () => {
  const jpeg = await photoWithMetadata('jpeg');
  server = createServer((req, res) => {
    requests.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'image/jpeg' });
    res.end(jpeg);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  dataDir = mkdtempSync(join(tmpdir(), 'import-product-photos-migration-'));
  t = await startTestApp({ DATA_DIR: dataDir, IMPORT_PHOTO_ALLOWED_HOSTS: '127.0.0.1' });
});
afterAll(async () => {
  await t?.close();
  server.closeAllConnections();
  await new Promise((ok) => server.close(ok));
  rmSync(dataDir, { recursive: true, force: true });
});

/** A Yotpo export with a store review and a product review, each naming one photo. */
function yotpoFile(tag: string): Uint8Array {
  const header =
    'Review ID,Review Creation Date,Review Type,Review Status,Review Score,Review Title,Review Content,Published Image Url,Reviewer Display Name,Reviewer Email,Product ID,Product Title';
  const rows = [
    `${tag}-1,2024-03-05 10:20:30 UTC,store,Published,5,Shop,Store ${tag},${base}/${tag}-store.jpg,Anna,anna@example.com,,`,
    `${tag}-2,2024-03-05 10:20:30 UTC,product,Published,4,Sweater,Product ${tag},${base}/${tag}-product.jpg,Bo,bo@example.com,7001,Sweater`,
  ];
  return new TextEncoder().encode(`${[header, ...rows].join('\n')}\n`);
}

/** Imports the file; its photo listing is left queued (`plan:<import>`), not run. */
async function importFile(shop: Webshop, tag: string): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(yotpoFile(tag))]), `${tag}.csv`);
  const res = await t.admin(`/admin/api/webshops/${shop.id}/imports`, { method: 'POST', body: form });
  expect(res.status).toBe(202);
  await drainImports(t.services, 'test-worker');
  return (await res.json()).id;
}

const photosOf = async (shop: Webshop, tag: string) => ({
  store: (await t.db.collection<Review>('reviews').findOne({ shopId: shop.id, comment: `Store ${tag}` }))?.photos,
  product: (
    await t.db
      .collection<ImportedProductReview>('imported_product_reviews')
      .findOne({ shopId: shop.id, text: `Product ${tag}` })
  )?.photos,
});

const view = async (shop: Webshop, id: string) =>
  (await t.admin(`/admin/api/webshops/${shop.id}/imports/${id}`)).json();

it('queues the photos an earlier version left unfetched, once; what it fetched is not fetched again', async () => {
  const shop = await t.createShop();
  // Finished by a version that fetched no photo: its listing was never queued.
  const before = await importFile(shop, 'old');
  await t.db.collection('import_photo_fetches').deleteOne({ _id: `plan:${before}` as never });
  // Finished by a version that fetched the store reviews' photos only: the product review's URL was never queued.
  const storeOnly = await importFile(shop, 'mid');
  const queue = t.services.importPhotos;
  const fetchProduct = queue.fetchProduct.bind(queue);
  queue.fetchProduct = async () => undefined;
  try {
    await drainImportPhotos(t.services, 'photo-worker');
  } finally {
    queue.fetchProduct = fetchProduct;
  }
  await t.services.imports.countPhotos(storeOnly, {}, { queued: 1 });
  await drainPhotoTasks(t.services);
  expect(await photosOf(shop, 'mid')).toMatchObject({ store: [{ state: 'shown' }], product: undefined });
  expect(await photosOf(shop, 'old')).toEqual({ store: undefined, product: undefined });
  expect(await queue.size()).toBe(0);
  expect(requests.filter((r) => r.startsWith('/mid-'))).toEqual(['/mid-store.jpg']);

  await t.db.collection('migrations').deleteOne({ _id: MARKER as never });
  expect(await migrateImportProductPhotos(t.services)).toBe(2);
  // Once: the marker is set; and while the listings are queued, another process's run adds nothing.
  expect(await migrateImportProductPhotos(t.services)).toBe(0);
  await t.db.collection('migrations').deleteOne({ _id: MARKER as never });
  expect(await migrateImportProductPhotos(t.services)).toBe(0);

  await drainImportPhotos(t.services, 'photo-worker');
  await drainPhotoTasks(t.services);
  expect(await photosOf(shop, 'old')).toMatchObject({ store: [{ state: 'shown' }], product: [{ state: 'shown' }] });
  expect(await photosOf(shop, 'mid')).toMatchObject({ store: [{ state: 'shown' }], product: [{ state: 'shown' }] });
  // Each URL fetched once in all.
  expect(requests.filter((r) => r.startsWith('/mid-')).sort()).toEqual(['/mid-product.jpg', '/mid-store.jpg']);
  expect(requests.filter((r) => r.startsWith('/old-')).sort()).toEqual(['/old-product.jpg', '/old-store.jpg']);
  expect(await view(shop, storeOnly)).toMatchObject({ photos_queued: 2, photos_fetched: 2, photos_failed: 0 });
  expect(await view(shop, before)).toMatchObject({ photos_queued: 2, photos_fetched: 2, photos_failed: 0 });
  expect(await queue.size()).toBe(0);
});

it('runs at start-up (its marker is there once the app has started)', async () => {
  expect(await t.db.collection('migrations').findOne({ _id: MARKER as never })).not.toBeNull();
});
