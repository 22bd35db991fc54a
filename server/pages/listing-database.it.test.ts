// Issue 20: the shop page's sorts and filters on MongoDB come from a query the indexes answer (ReviewStore's
// publishedChosen, the read model's chosenPage), not from the shop's reviews in memory. Forced here on FerretDB
// (MONGODB_URI set, as on MongoDB): for every sort and a range of filters, every page must hold the same reviews in
// the same order as the in-memory path (applyListing) gives, over a seeded shop built to find the differences:
// equal times and equal scores (the tie-breaks), photos shown and not shown, reviews not public, and "Helpful" votes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.js';
import type { Review } from '../reviews/model.js';
import type { Webshop } from '../webshops/store.js';
import { applyListing, SORTS, type Listing } from './listing.js';

let t: TestApp;
let shop: Webshop;
const COUNT = 95;
const PER_PAGE = 10;
const DAY = 86_400_000;

/** A small deterministic generator (the same shop every run; a failure can be read again). */
function random(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1_103_515_245 + 12_345) % 2 ** 31;
    return s / 2 ** 31;
  };
}

function reviewDoc(id: number, shopId: number, next: () => number): Review {
  // Few distinct times: many reviews share one, so the tie-break (id) decides their order.
  const created = new Date(Date.UTC(2026, 0, 1) + Math.floor(next() * 12) * DAY);
  const photo = (state: string) => ({
    id: `p${String(id).padStart(21, '0')}`,
    state,
    alt: '',
    width: 640,
    height: 480,
    thumbWidth: 320,
    thumbHeight: 240,
  });
  const roll = next();
  const photos = roll < 0.3 ? [photo('shown')] : roll < 0.4 ? [photo('held')] : roll < 0.45 ? [photo('pending')] : [];
  const hidden = next();
  const published = hidden > 0.12;
  return {
    id,
    shopId,
    name: `Writer ${id}`,
    email: `w${id}@example.com`,
    rating: 1 + Math.floor(next() * 5),
    ratings: { shippingtime: 0, customerservice: 0, pricequality: 0, aftersale: 0 },
    comment: `Review ${id}`,
    language: 'en',
    country: 'NL',
    order: `o-${id}`,
    created,
    modified: created,
    read: true,
    quarantine: !published && hidden < 0.06,
    is_spam: false,
    valid: true,
    deleted: !published && hidden >= 0.06,
    published,
    announced: published,
    verified: next() < 0.5,
    emailConfirmed: false,
    source: 'invitation',
    origin: 'verified_order',
    incentivised: false,
    imported_from: null,
    original_date: null,
    source_verified: false,
    products: [],
    reply: null,
    editToken: null,
    editMailDue: null,
    editMailSent: created,
    confirmToken: null,
    confirmMailSent: null,
    version: 1,
    pendingEvent: null,
    photos,
  } as unknown as Review;
}

beforeAll(async () => {
  // MONGODB_URI set: the configuration of a MongoDB deployment (here the tests' FerretDB).
  t = await startTestApp({ MONGODB_URI: inject('mongoUri') });
  shop = await t.createShop({ name: 'Sorted Shop', url: 'https://sorted.example/' });
  const next = random(20);
  const docs = Array.from({ length: COUNT }, (_, i) => reviewDoc(500_001 + i, shop.id, next));
  await t.db.collection('reviews').insertMany(docs.map((d) => ({ ...d })));
  // Votes: several reviews with equal counts (their order is the newest first among them), some not public.
  for (const d of docs) {
    const votes = next() < 0.35 ? 1 + Math.floor(next() * 3) : 0;
    for (let v = 0; v < votes; v++) await t.services.helpful.vote(shop.id, d.id, `voter-${v}`);
  }
}, 120_000);
afterAll(() => t.close());

const STAR_FILTERS: number[][] = [[], [1], [5], [1, 2], [2, 3, 4], [1, 3, 5], [4, 5]];

/** Every listing the page can be asked for, but a sample of the 31 star subsets. */
const listings = (): Listing[] =>
  SORTS.flatMap((sort) => STAR_FILTERS.flatMap((stars) => [false, true].map((photos) => ({ sort, stars, photos }))));

describe('the shop page on MongoDB: sorts and filters from the indexes', () => {
  it('gives the same pages as the shop held in memory, for every sort and filter', async () => {
    const all = (await t.services.ratings.allPublished(shop.id))!;
    expect(all.reviews.length).toBeGreaterThan(70);
    let compared = 0;
    for (const listing of listings()) {
      const expected = applyListing(all.reviews, listing).map((r) => r.rating.id);
      expect(await t.services.ratings.chosenCount(shop.id, listing), JSON.stringify(listing)).toBe(expected.length);
      const pages = Math.max(1, Math.ceil(expected.length / PER_PAGE));
      // The first two pages, the last, and one past the end (empty): skip and limit are the same query for every
      // page between, and each query scans on FerretDB, so every page of all 70 listings would cost a minute in CI.
      for (const page of [...new Set([0, 1, pages - 1, pages])].filter((p) => p <= pages)) {
        const got = await t.services.ratings.chosenPage(shop.id, listing, page * PER_PAGE, PER_PAGE);
        expect(
          got.reviews.map((r) => r.rating.id),
          `${JSON.stringify(listing)} page ${page + 1}`,
        ).toEqual(expected.slice(page * PER_PAGE, page * PER_PAGE + PER_PAGE));
        expect(got.total).toBe(all.reviews.length);
        expect(got.verified).toBe(all.verified);
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(200);
  }, 240_000);

  it('the shop page reads them there: its pages list the reviews the in-memory order gives', async () => {
    const all = (await t.services.ratings.allPublished(shop.id))!;
    for (const listing of [
      { sort: 'helpful', stars: [], photos: false },
      { sort: 'lowest', stars: [2, 3, 4], photos: false },
      { sort: 'oldest', stars: [], photos: true },
    ] as Listing[]) {
      const expected = applyListing(all.reviews, listing).map((r) => r.rating.id);
      const query = new URLSearchParams({ sort: listing.sort, page: '2' });
      if (listing.stars.length) query.set('stars', listing.stars.join(','));
      if (listing.photos) query.set('photos', '1');
      const res = await t.fetch(`/webshops/${shop.id}?${query}`);
      expect(res.status).toBe(200);
      const html = await res.text();
      const ids = [...html.matchAll(/<h3 id="review-(\d+)"/g)].map((m) => Number(m[1]));
      expect(ids, JSON.stringify(listing)).toEqual(expected.slice(PER_PAGE, 2 * PER_PAGE));
    }
  });

  it('uses the indexes made for them (each sort a prefix of one, read forwards or backwards)', async () => {
    const names = (await t.db.collection('reviews').indexes()).map((i) => i.name);
    for (const name of [
      'shop_published_created_id',
      'shop_published_rating_up',
      'shop_published_rating_down',
      'shop_published_photos_created_id',
    ])
      expect(names).toContain(name);
  });
});
