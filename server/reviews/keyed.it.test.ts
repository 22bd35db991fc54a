// Reviews are stored under their id as `_id`, so that a look-up by id is not a scan on FerretDB; reviews stored
// before that keep their generated `_id` and are still found, read and changed.
import { ObjectId } from 'mongodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { ReviewStore } from './store.js';
import type { Review } from './model.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('ReviewStore: reviews keyed by id', () => {
  it('stores a new review under its id and reads it back', async () => {
    const shop = await t.createShop({ name: 'Keyed BV', url: 'https://keyed.example/' });
    const review = await t.services.reviews.create(shop.id, {
      name: 'K',
      email: 'k@example.com',
      rating: 4,
      language: 'en',
    });
    const stored = await t.db.collection<Review & { _id: unknown }>('reviews').findOne({ id: review.id });
    expect(stored?._id).toBe(review.id);
    expect(await t.services.reviews.get(review.id)).toEqual(review);
    expect((await t.services.reviews.update(review.id, { rating: 2 }))?.rating).toBe(2);
  });

  it('still finds and changes a review stored with a generated _id, and finds no review above the highest id', async () => {
    const shop = await t.createShop({ name: 'Legacy BV', url: 'https://legacy.example/' });
    const template = await t.services.reviews.create(shop.id, {
      name: 'L',
      email: 'l@example.com',
      rating: 5,
      language: 'nl',
    });
    const legacyId = template.id + 1_000_000;
    await t.db.collection('reviews').insertOne({ ...template, id: legacyId, _id: new ObjectId() });
    // A process that starts after the upgrade (the highest legacy id is read once per process).
    const store = new ReviewStore(t.db);
    expect(await store.get(legacyId)).toMatchObject({ id: legacyId, name: 'L', rating: 5 });
    expect((await store.update(legacyId, { comment: 'Nog steeds goed' }))?.comment).toBe('Nog steeds goed');
    expect((await store.get(legacyId))?.comment).toBe('Nog steeds goed');
    expect(await store.get(legacyId + 1)).toBeNull();
    expect(await store.get(template.id)).toEqual(await t.services.reviews.get(template.id));
  });
});
