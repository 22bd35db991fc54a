// Our own export as an import format (issue 19, "Round trip"): a shop's reviews exported by the operator API
// (server/exports) and imported into another shop come back as imported reviews with everything the file carries:
// original dates, replies with their dates, titles, products, experience dates, held reviews held, formula-like
// text restored, removed reviews left out. Importing the same export twice adds nothing.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { storedReview } from '../../test/review-fixture.js';
import type { Review } from '../reviews/model.js';
import type { Webshop } from '../webshops/store.js';
import { drainImportPhotos } from './photo-import.js';
import { drainImports } from './service.js';

let t: TestApp;
let source: Webshop;

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url));
const day = (iso: string) => new Date(`${iso}T00:00:00Z`);

async function importFile(shop: Webshop, bytes: Uint8Array, name: string, fields: Record<string, string> = {}) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', new Blob([new Uint8Array(bytes)]), name);
  const res = await t.admin(`/admin/api/webshops/${shop.id}/imports`, { method: 'POST', body: form });
  const body = await res.json();
  expect(res.status, JSON.stringify(body)).toBe(202);
  await drainImports(t.services, 'test-worker');
  return (await t.admin(`/admin/api/webshops/${shop.id}/imports/${body.id}`)).json();
}

const reviewsOf = (shop: Webshop) =>
  t.db.collection<Review>('reviews').find({ shopId: shop.id, deleted: false }).toArray();

const iso = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString() : null);

/** What a review must keep through export and import, in the words of the importing side. */
function expected(r: Review) {
  return {
    rating: r.rating,
    title: r.title ?? '',
    comment: r.comment,
    name: r.name,
    email: r.email,
    language: r.language,
    country: r.country,
    quarantine: r.quarantine,
    original_date: iso(r.original_date ?? r.created),
    experience_date: iso(r.experience_date),
    imported_from: r.imported_from ?? 'Review export',
    reply: r.reply ? { text: r.reply.text, date: iso(r.reply.date) } : null,
    products: r.products,
  };
}

function actual(r: Review) {
  return {
    rating: r.rating,
    title: r.title ?? '',
    comment: r.comment,
    name: r.name,
    email: r.email,
    language: r.language,
    country: r.country,
    quarantine: r.quarantine,
    original_date: iso(r.original_date),
    experience_date: iso(r.experience_date),
    imported_from: r.imported_from,
    reply: r.reply ? { text: r.reply.text, date: iso(r.reply.date) } : null,
    products: r.products,
  };
}

beforeAll(async () => {
  t = await startTestApp();
  source = await t.createShop({ name: 'Leaving Shop' });
  // Reviews of every kind the export carries: imported ones (titles, replies, order dates as experience dates, one
  // held), one written here with products, a reply and a formula-like text, one held, one removed.
  await importFile(source, fixture('yotpo.csv'), 'yotpo.csv');
  await t.db.collection<Review>('reviews').insertMany([
    storedReview({
      id: 880_001,
      shopId: source.id,
      name: 'Fenna',
      email: 'fenna@customer.example',
      rating: 5,
      comment: '=SUM(A1) is how I rate "this", with a comma',
      language: 'en',
      country: 'GB',
      created: day('2025-11-02'),
      experience_date: '2025-10',
      reply: {
        text: '-thank you, Fenna',
        date: new Date('2025-11-03T08:30:00Z'),
        notify: false,
        revision: 1,
        notified: null,
      },
      products: [
        {
          external_id: 'P-1',
          name: 'Teapot, "large"',
          url: 'https://shop.example/teapot',
          image_url: 'https://shop.example/teapot.jpg',
          sku: 'TP-1',
          gtin: '4006381333931',
          mpn: 'M-1',
          brand: 'Pots',
          rating: 4,
          content: 'Pours well',
        },
      ],
    }),
    storedReview({
      id: 880_002,
      shopId: source.id,
      name: 'Gijs',
      email: 'gijs@customer.example',
      rating: 2,
      comment: 'Held back for a check',
      quarantine: true,
      published: false,
      created: day('2025-12-01'),
    }),
    storedReview({
      id: 880_003,
      shopId: source.id,
      name: '',
      email: '',
      rating: 1,
      comment: 'Removed by the operator',
      deleted: true,
      published: false,
      created: day('2025-12-02'),
    }),
  ] as Review[]);
});
afterAll(async () => {
  await t?.close();
});

describe('our own export, imported into another shop', () => {
  it('CSV: every review reproduced as imported, with original dates, replies, titles, products, experience dates', async () => {
    const res = await t.admin(`/admin/api/webshops/${source.id}/reviews/export?format=csv`);
    expect(res.status).toBe(200);
    const file = new Uint8Array(await res.arrayBuffer());
    const before = await reviewsOf(source);
    expect(before.length).toBe(4);

    const target = await t.createShop({ name: 'Arriving Shop' });
    const done = await importFile(target, file, 'reviews.csv');
    expect(done).toMatchObject({
      status: 'done',
      format: 'export',
      read: 5,
      imported: 4,
      held: 2,
      duplicates: 0,
      problems: [{ line: expect.any(Number), reason: expect.stringMatching(/removed at the source/) }],
    });
    const after = await reviewsOf(target);
    expect(after.every((r) => r.origin === 'imported' && r.source === 'import' && !r.verified)).toBe(true);
    const byText = new Map(after.map((r) => [r.comment, r]));
    for (const review of before) {
      const copy = byText.get(review.comment);
      expect(copy, `the review "${review.comment}"`).toBeDefined();
      expect(actual(copy!)).toEqual(expected(review));
    }
    // The reviews of the file that showed are shown at once; the held one waits for the operator.
    expect(after.filter((r) => r.published).length).toBe(2);

    // The same export again adds nothing.
    const again = await importFile(target, file, 'reviews.csv');
    expect(again).toMatchObject({ status: 'done', imported: 0, duplicates: 4 });
    expect((await reviewsOf(target)).length).toBe(4);
  });

  it('JSON: every review reproduced the same way, photo URLs included; the CSV of the same export then adds nothing', async () => {
    // A shown photo on one review: the export names its public URL.
    const photo = {
      id: 'A'.repeat(22),
      state: 'shown' as const,
      alt: '',
      width: 8,
      height: 8,
      thumbWidth: 8,
      thumbHeight: 8,
    };
    await t.db.collection<Review>('reviews').updateOne({ id: 880_001 }, { $set: { photos: [photo] } });
    const res = await t.admin(`/admin/api/webshops/${source.id}/reviews/export?format=json`);
    expect(res.status).toBe(200);
    const file = new Uint8Array(await res.arrayBuffer());
    const exported = JSON.parse(new TextDecoder().decode(file)) as { id: number; photo_urls: string[] }[];
    const photoUrls = exported.find((r) => r.id === 880_001)!.photo_urls;
    expect(photoUrls).toEqual([expect.stringMatching(new RegExp(`/photos/${photo.id}\\.webp$`))]);
    const before = await reviewsOf(source);

    const target = await t.createShop({ name: 'Arriving Shop (JSON)' });
    const done = await importFile(target, file, 'reviews.json');
    expect(done).toMatchObject({
      status: 'done',
      format: 'export_json',
      imported_from: 'Review export',
      read: 5,
      imported: 4,
      held: 2,
      duplicates: 0,
      // Line n + 1: the n-th element of the array, as our export writes one per line after "[".
      problems: [{ line: expect.any(Number), reason: expect.stringMatching(/removed at the source/) }],
    });
    const after = await reviewsOf(target);
    expect(after.every((r) => r.origin === 'imported' && r.source === 'import' && !r.verified)).toBe(true);
    const byText = new Map(after.map((r) => [r.comment, r]));
    for (const review of before) {
      const copy = byText.get(review.comment);
      expect(copy, `the review "${review.comment}"`).toBeDefined();
      expect(actual(copy!)).toEqual(expected(review));
    }
    // The photo's URL is kept as data; fetching it (this installation's own address, loopback) is refused and counted.
    const withPhoto = byText.get(before.find((r) => r.id === 880_001)!.comment)!;
    expect(withPhoto.photo_urls).toEqual(photoUrls);
    await drainImportPhotos(t.services, 'photo-worker');
    const counted = await (await t.admin(`/admin/api/webshops/${target.id}/imports/${done.id}`)).json();
    expect(counted).toMatchObject({ photos_queued: 1, photos_fetched: 0, photos_failed: 1 });
    expect((await t.services.reviews.get(withPhoto.id))!.photos ?? []).toEqual([]);

    // Same platform, same ids: the CSV of the same shop's export is recognised as the same reviews.
    const csv = new Uint8Array(
      await (await t.admin(`/admin/api/webshops/${source.id}/reviews/export?format=csv`)).arrayBuffer(),
    );
    const again = await importFile(target, csv, 'reviews.csv');
    expect(again).toMatchObject({ status: 'done', imported: 0, duplicates: 4 });
  });
});
