// Edit and confirmation links open their review through a small index keyed by the token (no scan of the reviews
// per request on FerretDB); reviews stored before the index existed are indexed once at start-up.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { MigrationMarkers } from '../db/migrations.js';
import { newLinkSecret } from '../links.js';
import { ReviewStore } from './store.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('ReviewStore.byLinkToken', () => {
  it('opens the review by its current tokens only, and not once it is deleted', async () => {
    const shop = await t.createShop({ name: 'Links BV', url: 'https://links.example/' });
    const confirmToken = newLinkSecret();
    const review = await t.services.reviews.create(shop.id, {
      name: 'L',
      email: 'l@example.com',
      rating: 4,
      language: 'en',
      quarantine: true,
      confirmToken,
    });
    expect((await t.services.reviews.byLinkToken('confirmToken', confirmToken))?.id).toBe(review.id);
    // The confirmation token does not open the edit page.
    expect(await t.services.reviews.byLinkToken('editToken', confirmToken)).toBeNull();
    expect(await t.services.reviews.byLinkToken('confirmToken', newLinkSecret())).toBeNull();

    const editToken = newLinkSecret();
    await t.services.reviews.update(review.id, { quarantine: false, confirmToken: null, editToken });
    expect(await t.services.reviews.byLinkToken('confirmToken', confirmToken)).toBeNull();
    expect((await t.services.reviews.byLinkToken('editToken', editToken))?.id).toBe(review.id);

    await t.services.reviews.softDelete(review.id);
    expect(await t.services.reviews.byLinkToken('editToken', editToken)).toBeNull();
  });

  it('finds the links of reviews stored before the index, once the start-up backfill ran', async () => {
    const shop = await t.createShop({ name: 'Old Links BV', url: 'https://old-links.example/' });
    const review = await t.services.reviews.create(shop.id, {
      name: 'O',
      email: 'o@example.com',
      rating: 5,
      language: 'nl',
    });
    // A review whose edit token was written by a version without the index.
    const editToken = newLinkSecret();
    await t.db.collection('reviews').updateOne({ id: review.id }, { $set: { editToken } });
    expect(await t.services.reviews.byLinkToken('editToken', editToken)).toBeNull();

    await new MigrationMarkers(t.db).forget('reviews.link-index');
    const restarted = new ReviewStore(t.db);
    await restarted.ensureIndexes();
    expect((await restarted.byLinkToken('editToken', editToken))?.id).toBe(review.id);
  });
});
