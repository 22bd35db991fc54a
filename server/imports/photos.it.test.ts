// Photo URLs of imported files become photos of their reviews (issue 19, photo-import.ts), against the real database,
// a real HTTP server holding the photos and the real photo pipeline (sharp). The worker's jobs are run by the test.
// Local addresses are reachable only through IMPORT_PHOTO_ALLOWED_HOSTS, as webhooks' WEBHOOK_ALLOWED_HOSTS; without
// it (production rules) a URL at 127.0.0.1 is refused before any connection.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, withAuth, type TestApp } from '../../test/harness.js';
import { photoWithMetadata, SECRET_MAKE } from '../../test/photo-fixtures.js';
import type { Review } from '../reviews/model.js';
import type { Webshop } from '../webshops/store.js';
import { drainPhotoTasks } from '../photos/jobs.js';
import { eraseCustomer } from '../customers/erase.js';
import { fetchPhoto } from './photo-fetch.js';
import { drainImportPhotos } from './photo-import.js';
import { drainImports } from './service.js';

let server: Server;
let base: string;
let jpeg: Buffer;
const requests: string[] = [];

beforeAll(async () => {
  jpeg = await photoWithMetadata('jpeg');
  server = createServer((req, res) => {
    requests.push(req.url ?? '');
    if (req.url === '/photo.jpg') {
      // A declared type that lies: only the bytes count.
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.end(jpeg);
    } else if (req.url === '/moved') {
      res.writeHead(302, { location: '/photo.jpg' });
      res.end();
    } else if (req.url === '/to-metadata') {
      // A redirect to the cloud metadata address: checked like the first URL, and refused.
      res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' });
      res.end();
    } else if (req.url === '/chunked.jpg') {
      // No Content-Length: only counting the bytes as they come stops it.
      res.writeHead(200, { 'content-type': 'image/jpeg' });
      res.write(jpeg);
      res.write(jpeg);
      res.end(jpeg);
    } else if (req.url === '/page.html') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!doctype html><title>Not a photo</title>');
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

/** A Yotpo export with store reviews naming photo URLs (`Published Image Url`, several separated by commas). */
function yotpoFile(rows: { id: string; text: string; urls: string[]; email?: string; status?: string }[]): Uint8Array {
  const header =
    'Review ID,Review Creation Date,Review Type,Review Status,Review Score,Review Title,Review Content,Published Image Url,Reviewer Display Name,Reviewer Email';
  const lines = rows.map(
    (r) =>
      `${r.id},2024-03-05 10:20:30 UTC,store,${r.status ?? 'Published'},5,Title ${r.id},${r.text},"${r.urls.join(',')}",Anna,${r.email ?? 'anna@example.com'}`,
  );
  return new TextEncoder().encode(`${[header, ...lines].join('\n')}\n`);
}

async function importFile(t: TestApp, shop: Webshop, bytes: Uint8Array) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)]), 'yotpo.csv');
  const res = await t.admin(`/admin/api/webshops/${shop.id}/imports`, { method: 'POST', body: form });
  const body = await res.json();
  expect(res.status, JSON.stringify(body)).toBe(202);
  await drainImports(t.services, 'test-worker');
  return body.id as string;
}

const view = async (t: TestApp, shop: Webshop, id: string) =>
  (await t.admin(`/admin/api/webshops/${shop.id}/imports/${id}`)).json();

const reviewOf = async (t: TestApp, shop: Webshop, text: string) =>
  (await t.db.collection<Review>('reviews').findOne({ shopId: shop.id, comment: text }))!;

describe('with the test server allowed (IMPORT_PHOTO_ALLOWED_HOSTS)', () => {
  let t: TestApp;
  let dataDir: string;
  let shop: Webshop;
  let importId: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'import-photos-'));
    t = await startTestApp({ DATA_DIR: dataDir, IMPORT_PHOTO_ALLOWED_HOSTS: '127.0.0.1' });
    shop = await t.createShop();
    importId = await importFile(
      t,
      shop,
      yotpoFile([
        { id: 'P1', text: 'With a photo', urls: [`${base}/photo.jpg`, `${base}/moved`] },
        {
          id: 'P2',
          text: 'Only broken links',
          urls: [`${base}/missing.jpg`, `${base}/page.html`, `${base}/to-metadata`],
        },
        { id: 'P3', text: 'Too many', urls: Array.from({ length: 7 }, (_, i) => `${base}/missing-${i}.jpg`) },
      ]),
    );
  });
  afterAll(async () => {
    await t.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('fetches each URL once the import is done, through the photo pipeline: a WebP without EXIF', async () => {
    expect(await view(t, shop, importId)).toMatchObject({ status: 'done', imported: 3 });
    requests.length = 0;
    await drainImportPhotos(t.services, 'photo-worker');
    await drainImportPhotos(t.services, 'photo-worker');
    // At most 5 per review: 2 + 3 + 5 of the file's 12.
    expect(requests.filter((r) => r.startsWith('/missing-')).length).toBe(5);
    expect(await t.services.importPhotos.size()).toBe(0);

    const withPhoto = await reviewOf(t, shop, 'With a photo');
    expect(withPhoto.photos?.map((p) => p.state)).toEqual(['pending', 'pending']);
    await drainPhotoTasks(t.services);
    const encoded = (await t.services.reviews.get(withPhoto.id))!;
    expect(encoded.photos?.map((p) => p.state)).toEqual(['shown', 'shown']);
    // Attaching and encoding the import's photos sends no review event (a bulk import sends none).
    expect(encoded.pendingEvent).toBeNull();
    for (const p of encoded.photos!) {
      const res = await t.fetch(`/photos/${p.id}.webp`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/webp');
      const bytes = Buffer.from(await res.arrayBuffer());
      for (const chunk of ['EXIF', 'XMP ', SECRET_MAKE, 'GPS']) expect(bytes.includes(chunk)).toBe(false);
      expect((await sharp(bytes).metadata()).exif).toBeUndefined();
    }
    const ratings = (await (await t.fetch(withAuth('/api/1.0/ratings.json', shop))).json()).ratings as {
      id: number;
      photos: unknown[];
    }[];
    expect(ratings.find((r) => r.id === withPhoto.id)?.photos).toHaveLength(2);
  });

  it('counts what failed on the import, with the latest reason, and keeps the reviews', async () => {
    const done = await view(t, shop, importId);
    expect(done).toMatchObject({ photos_queued: 10, photos_fetched: 2, photos_failed: 8 });
    expect(done.photo_failure).toEqual(expect.stringMatching(/: (HTTP 404|not a JPEG|refused: 169\.254)/));
    const broken = await reviewOf(t, shop, 'Only broken links');
    expect(broken.published).toBe(true);
    expect(broken.photos ?? []).toEqual([]);
    // The redirect to the metadata address was refused, not followed.
    expect(requests).toContain('/to-metadata');
  });

  it("erasure takes the writer's photos and URLs, fetched or not yet", async () => {
    const other = await t.createShop();
    await importFile(
      t,
      other,
      yotpoFile([{ id: 'E1', text: 'Erase me later', urls: [`${base}/photo.jpg`], email: 'erase@example.com' }]),
    );
    await drainImportPhotos(t.services, 'photo-worker');
    await drainPhotoTasks(t.services);
    const shown = await reviewOf(t, other, 'Erase me later');
    expect(shown.photos?.map((p) => p.state)).toEqual(['shown']);
    // A second file by the same writer, erased before its photo is fetched.
    await importFile(
      t,
      other,
      yotpoFile([{ id: 'E2', text: 'Erased before the fetch', urls: [`${base}/moved`], email: 'erase@example.com' }]),
    );
    await eraseCustomer(t.services, { email: 'erase@example.com', shopId: other.id });
    requests.length = 0;
    await drainImportPhotos(t.services, 'photo-worker');
    expect(requests).toEqual([]);
    await drainPhotoTasks(t.services);
    const erased = (await t.services.reviews.get(shown.id))!;
    expect(erased.photos?.map((p) => p.state)).toEqual(['removed']);
    expect(erased.photo_urls).toEqual([]);
    expect((await t.fetch(`/photos/${shown.photos![0]!.id}.webp`)).status).toBe(404);
    const never = await reviewOf(t, other, 'Erased before the fetch');
    expect(never.photos ?? []).toEqual([]);
    expect(never.photo_urls).toEqual([]);
  });

  it('"remove all" held reviews takes their photos: files deleted', async () => {
    const other = await t.createShop();
    const id = await importFile(
      t,
      other,
      yotpoFile([{ id: 'H1', text: 'Held at the source', urls: [`${base}/photo.jpg`], status: 'Unpublished' }]),
    );
    await drainImportPhotos(t.services, 'photo-worker');
    await drainPhotoTasks(t.services);
    const held = await reviewOf(t, other, 'Held at the source');
    expect(held.published).toBe(false);
    expect(held.photos?.map((p) => p.state)).toEqual(['shown']);
    // Not public while the review is held.
    expect((await t.fetch(`/photos/${held.photos![0]!.id}.webp`)).status).toBe(404);
    const res = await t.admin(`/admin/api/webshops/${other.id}/imports/${id}/held`, {
      method: 'POST',
      json: { action: 'remove', ground: 'spam' },
    });
    // Applied by the worker; the import then says how many it decided.
    expect(res.status).toBe(202);
    await drainImports(t.services, 'test-worker');
    const decided = await (await t.admin(`/admin/api/webshops/${other.id}/imports/${id}`)).json();
    expect(decided.held_decision).toMatchObject({ action: 'remove', ground: 'spam', reviews: 1 });
    expect((await t.services.reviews.get(held.id))!.photos?.map((p) => p.state)).toEqual(['removed']);
    await drainPhotoTasks(t.services);
    const id0 = held.photos![0]!.id;
    expect(readdirSync(join(dataDir, 'photos')).filter((f) => f.startsWith(id0))).toEqual([]);
  });

  it('undoing the import takes its photos with its reviews: files deleted, 404', async () => {
    const review = await reviewOf(t, shop, 'With a photo');
    const ids = review.photos!.map((p) => p.id);
    const res = await t.admin(`/admin/api/webshops/${shop.id}/imports/${importId}`, { method: 'DELETE' });
    expect(res.status).toBe(202);
    await drainImports(t.services, 'test-worker');
    const removed = (await t.services.reviews.get(review.id))!;
    expect(removed.deleted).toBe(true);
    expect(removed.photos?.map((p) => p.state)).toEqual(['removed', 'removed']);
    await drainPhotoTasks(t.services);
    for (const id of ids) expect((await t.fetch(`/photos/${id}.webp`)).status).toBe(404);
    expect(readdirSync(join(dataDir, 'photos')).filter((f) => ids.some((id) => f.startsWith(id)))).toEqual([]);
  });
});

describe('with the production rules (no allowed hosts)', () => {
  let t: TestApp;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'import-photos-'));
    t = await startTestApp({ DATA_DIR: dataDir });
  });
  afterAll(async () => {
    await t.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses a URL at 127.0.0.1 before connecting: counted as failed, the review kept', async () => {
    const shop = await t.createShop();
    const id = await importFile(
      t,
      shop,
      yotpoFile([{ id: 'L1', text: 'Loopback photo', urls: [`${base}/photo.jpg`] }]),
    );
    requests.length = 0;
    await drainImportPhotos(t.services, 'photo-worker');
    expect(requests).toEqual([]);
    const done = await view(t, shop, id);
    expect(done).toMatchObject({ photos_queued: 1, photos_fetched: 0, photos_failed: 1 });
    expect(done.photo_failure).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/photo\.jpg: refused: 127\.0\.0\.1 is a loopback/);
    const review = await reviewOf(t, shop, 'Loopback photo');
    expect(review.published).toBe(true);
    expect(review.photos ?? []).toEqual([]);
    // Kept as data only (never shown or hot-linked).
    expect(review.photo_urls).toEqual([`${base}/photo.jpg`]);
  });
});

describe('fetchPhoto', () => {
  const options = { allowedHosts: ['127.0.0.1'], userAgent: 'test' };

  it('follows a redirect that is checked again, and reads no more than the size limit', async () => {
    const moved = await fetchPhoto(`${base}/moved`, options);
    expect(moved.ok && moved.bytes.equals(jpeg)).toBe(true);
    expect(await fetchPhoto(`${base}/photo.jpg`, { ...options, maxBytes: 100 })).toEqual({
      ok: false,
      reason: expect.stringMatching(/^larger than/),
      transient: false,
    });
    expect(await fetchPhoto(`${base}/chunked.jpg`, { ...options, maxBytes: jpeg.length * 2 })).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^larger than/),
    });
  });

  it('takes http and https URLs only, and gives up after the timeout (to be tried again)', async () => {
    expect(await fetchPhoto('ftp://127.0.0.1/photo.jpg', options)).toMatchObject({ ok: false, transient: false });
    expect(await fetchPhoto('file:///etc/passwd', options)).toMatchObject({ ok: false, transient: false });
    const slow = createServer(() => undefined);
    await new Promise<void>((ok) => slow.listen(0, '127.0.0.1', ok));
    try {
      const url = `http://127.0.0.1:${(slow.address() as AddressInfo).port}/never.jpg`;
      expect(await fetchPhoto(url, { ...options, timeoutMs: 300 })).toEqual({
        ok: false,
        reason: 'timed out after 0.3 s',
        transient: true,
      });
    } finally {
      slow.closeAllConnections();
      slow.close();
    }
  });
});
