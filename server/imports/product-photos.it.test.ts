// Photo URLs of imported product-only reviews (Judge.me's picture_urls) become photos of those reviews (issue 19 with
// 20 and 22): fetched by the worker through the same guard, re-encoded by the photo worker, shown on the product
// fragment and widget, served while the product review is published, and gone with undo, "remove all" and erasure.
// Real database, a real HTTP server holding the photos, the real photo pipeline (sharp); the jobs run by the test.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { photoWithMetadata, SECRET_MAKE } from '../../test/photo-fixtures.js';
import { eraseCustomer } from '../customers/erase.js';
import { drainPhotoTasks } from '../photos/jobs.js';
import type { Webshop } from '../webshops/store.js';
import { drainImportPhotos } from './photo-import.js';
import type { ImportedProductReview } from './product-review-store.js';
import { drainImports } from './service.js';

let server: Server;
let base: string;
let jpeg: Buffer;
const requests: string[] = [];

beforeAll(async () => {
  jpeg = await photoWithMetadata('jpeg');
  server = createServer((req, res) => {
    requests.push(req.url ?? '');
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

/** A Judge.me export (product reviews only); `curated` other than ok holds the review for the operator. */
function judgeMeFile(
  rows: { text: string; urls: string[]; name?: string; email?: string; curated?: string; product?: string }[],
): Uint8Array {
  const header =
    'title,body,rating,review_date,source,curated,reviewer_name,reviewer_email,product_id,product_handle,reply,reply_date,picture_urls,location';
  const lines = rows.map(
    (r) =>
      `Title,${r.text},5,2024-01-10 10:00:00 UTC,web,${r.curated ?? 'ok'},${r.name ?? 'Hanna'},${r.email ?? 'hanna@example.com'},${r.product ?? '7001'},warm-sweater,,,"${r.urls.join(',')}",Utrecht`,
  );
  return new TextEncoder().encode(`${[header, ...lines].join('\n')}\n`);
}

async function importFile(t: TestApp, shop: Webshop, bytes: Uint8Array): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)]), 'judgeme.csv');
  const res = await t.admin(`/admin/api/webshops/${shop.id}/imports`, { method: 'POST', body: form });
  const body = await res.json();
  expect(res.status, JSON.stringify(body)).toBe(202);
  await drainImports(t.services, 'test-worker');
  return body.id as string;
}

const productReviewOf = async (t: TestApp, shop: Webshop, text: string) =>
  (await t.db.collection<ImportedProductReview>('imported_product_reviews').findOne({ shopId: shop.id, text }))!;

const filesOf = (dataDir: string, ids: readonly string[]) =>
  readdirSync(join(dataDir, 'photos')).filter((f) => ids.some((id) => f.startsWith(id)));

/** Fetches and encodes whatever is queued. */
async function runWorkers(t: TestApp): Promise<void> {
  await drainImportPhotos(t.services, 'photo-worker');
  await drainPhotoTasks(t.services);
}

describe('photos of imported product reviews', () => {
  let t: TestApp;
  let dataDir: string;
  let shop: Webshop;
  let importId: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'import-product-photos-'));
    t = await startTestApp({ DATA_DIR: dataDir, IMPORT_PHOTO_ALLOWED_HOSTS: '127.0.0.1' });
    shop = await t.createShop();
    importId = await importFile(
      t,
      shop,
      judgeMeFile([
        {
          text: 'Soft sweater',
          urls: [`${base}/photo-a.jpg`, `${base}/photo-b.jpg`, ...Array.from({ length: 5 }, (_, i) => `${base}/x${i}`)],
        },
        { text: 'Held at the source', urls: [`${base}/photo-held.jpg`], curated: 'spam', name: 'Spammer' },
      ]),
    );
  });
  afterAll(async () => {
    await t.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('fetches them once the import is done: thumbnails on the product fragment and widget, a WebP without EXIF', async () => {
    const before = await productReviewOf(t, shop, 'Soft sweater');
    expect(before.photos ?? []).toEqual([]);
    requests.length = 0;
    await drainImportPhotos(t.services, 'photo-worker');
    // At most 5 of the review's 7 URLs are asked for.
    expect(requests.filter((r) => r.startsWith('/x')).length).toBe(3);
    expect(await t.services.importPhotos.size()).toBe(0);
    const pending = await productReviewOf(t, shop, 'Soft sweater');
    expect(pending.photos?.map((p) => p.state)).toEqual(['pending', 'pending']);
    // Not served before it is encoded.
    expect((await t.fetch(`/photos/${pending.photos![0]!.id}.webp`)).status).toBe(404);
    await drainPhotoTasks(t.services);

    const shown = await productReviewOf(t, shop, 'Soft sweater');
    expect(shown.photos?.map((p) => p.state)).toEqual(['shown', 'shown']);
    for (const p of shown.photos!) {
      const res = await t.fetch(`/photos/${p.id}.webp`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/webp');
      const bytes = Buffer.from(await res.arrayBuffer());
      for (const chunk of ['EXIF', 'XMP ', SECRET_MAKE, 'GPS']) expect(bytes.includes(chunk)).toBe(false);
      const meta = await sharp(bytes).metadata();
      expect(meta.format).toBe('webp');
      expect(meta.exif).toBeUndefined();
      expect((await t.fetch(`/photos/${p.id}-320.webp`)).status).toBe(200);
    }
    const view = await (await t.admin(`/admin/api/webshops/${shop.id}/imports/${importId}`)).json();
    expect(view).toMatchObject({ photos_queued: 6, photos_fetched: 3, photos_failed: 3 });

    const [first, second] = shown.photos!;
    const fragment = await (await t.fetch(`/webshops/${shop.id}/products/reviews.html?product=7001&lang=en`)).text();
    const widget = await (
      await t.fetch(`/webshops/widget_html?id=${shop.id}&layout=product&product=7001&language=en`)
    ).text();
    for (const html of [fragment, widget]) {
      expect(html).toContain(
        `<img src="${t.services.config.baseUrl}/photos/${first!.id}-320.webp" width="${first!.thumbWidth}" height="${first!.thumbHeight}" alt="Photo 1 of 2 by Hanna" loading="lazy" decoding="async"/>`,
      );
      expect(html).toContain(`alt="Photo 2 of 2 by Hanna"`);
      expect(html).toContain(`${t.services.config.baseUrl}/photos/${second!.id}.webp`);
      // The file's own URLs are never shown or hot-linked.
      expect(html).not.toContain(base);
    }
  });

  it('does not serve a held product review\'s photo; "remove all" deletes it', async () => {
    const held = await productReviewOf(t, shop, 'Held at the source');
    expect(held.status).toBe('held');
    expect(held.photos?.map((p) => p.state)).toEqual(['shown']);
    const id = held.photos![0]!.id;
    expect((await t.fetch(`/photos/${id}.webp`)).status).toBe(404);
    const res = await t.admin(`/admin/api/webshops/${shop.id}/imports/${importId}/held`, {
      method: 'POST',
      json: { action: 'remove', ground: 'spam' },
    });
    // Applied by the worker; the import then says how many it decided.
    expect(res.status).toBe(202);
    await drainImports(t.services, 'test-worker');
    const decided = await (await t.admin(`/admin/api/webshops/${shop.id}/imports/${importId}`)).json();
    expect(decided.held_decision).toMatchObject({ action: 'remove', ground: 'spam', reviews: 1 });
    const removed = await productReviewOf(t, shop, '');
    expect(removed.status).toBe('removed');
    expect(removed.photos).toEqual([]);
    await drainPhotoTasks(t.services);
    expect(filesOf(dataDir, [id])).toEqual([]);
    expect(await t.services.photos.get(id)).toBeNull();
  });

  it('undoing the import takes the photos: 404, files and records deleted', async () => {
    const review = await productReviewOf(t, shop, 'Soft sweater');
    const ids = review.photos!.map((p) => p.id);
    expect(filesOf(dataDir, ids)).toHaveLength(4);
    const res = await t.admin(`/admin/api/webshops/${shop.id}/imports/${importId}`, { method: 'DELETE' });
    expect(res.status).toBe(202);
    await drainImports(t.services, 'test-worker');
    const undone = (await t.services.productReviews.get(review._id))!;
    expect(undone.status).toBe('removed');
    expect(undone.photos).toEqual([]);
    // Not served even before the worker deletes the files: the review is not published.
    for (const id of ids) expect((await t.fetch(`/photos/${id}.webp`)).status).toBe(404);
    await drainPhotoTasks(t.services);
    expect(filesOf(dataDir, ids)).toEqual([]);
    for (const id of ids) expect(await t.services.photos.get(id)).toBeNull();
    const fragment = await t.fetch(`/webshops/${shop.id}/products/reviews.html?product=7001&lang=en`);
    expect(await fragment.text()).not.toContain('/photos/');
  });

  it("fetches a Yotpo product row's Published Image Url onto its product review", async () => {
    const other = await t.createShop();
    const header =
      'Review ID,Review Creation Date,Review Type,Review Status,Review Score,Review Title,Review Content,Published Image Url,Reviewer Display Name,Reviewer Email,Product ID,Product Title';
    const row = `Y1,2024-03-05 10:20:30 UTC,product,Published,4,Nice,Yotpo kettle,"${base}/photo-y.jpg",Yara,yara@example.com,K-9,Kettle`;
    await importFile(t, other, new TextEncoder().encode(`${header}\n${row}\n`));
    await runWorkers(t);
    const review = await productReviewOf(t, other, 'Yotpo kettle');
    expect(review.photos?.map((p) => p.state)).toEqual(['shown']);
    const html = await (await t.fetch(`/webshops/${other.id}/products/reviews.html?product=K-9&lang=en`)).text();
    expect(html).toContain(`/photos/${review.photos![0]!.id}-320.webp`);
    expect(html).toContain('alt="Photo 1 of 1 by Yara"');
    expect((await t.fetch(`/photos/${review.photos![0]!.id}.webp`)).status).toBe(200);
  });

  it("erasure takes the writer's photos, fetched or not yet", async () => {
    const other = await t.createShop();
    await importFile(
      t,
      other,
      judgeMeFile([{ text: 'Erase me later', urls: [`${base}/photo-e.jpg`], email: 'erase@example.com', name: 'Eva' }]),
    );
    await runWorkers(t);
    const shown = await productReviewOf(t, other, 'Erase me later');
    expect(shown.photos?.map((p) => p.state)).toEqual(['shown']);
    const id = shown.photos![0]!.id;
    expect((await t.fetch(`/photos/${id}.webp`)).status).toBe(200);
    // A second file by the same writer, erased before its photo is fetched.
    await importFile(
      t,
      other,
      judgeMeFile([
        { text: 'Erased before the fetch', urls: [`${base}/photo-f.jpg`], email: 'erase@example.com', product: '7002' },
      ]),
    );
    await eraseCustomer(t.services, { email: 'erase@example.com', shopId: other.id });
    requests.length = 0;
    await runWorkers(t);
    expect(requests).toEqual([]);
    const erased = (await t.services.productReviews.get(shown._id))!;
    expect(erased.photos).toEqual([]);
    expect(erased.photo_urls).toEqual([]);
    expect((await t.fetch(`/photos/${id}.webp`)).status).toBe(404);
    expect(filesOf(dataDir, [id])).toEqual([]);
    expect(await t.services.photos.get(id)).toBeNull();
    const never = (await t.db
      .collection<ImportedProductReview>('imported_product_reviews')
      .findOne({ shopId: other.id, 'product.external_id': '7002' }))!;
    expect(never.photos ?? []).toEqual([]);
    expect(never.photo_urls).toEqual([]);
  });
});
