// The start-up rename of `removal_ground` to `removalGround` (docs/decisions.md, "Stored field names"): a review an
// older version removed reads the same afterwards (same ground, same version, no event), reviews without a ground
// are left alone, and a second run finds nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.js';
import type { Review } from '../reviews/model.js';
import { migrateRemovalGround } from './removal-ground.js';
import { queuedEvents } from '../../test/webhook-events.js';

const MARKER = 'reviews.removal_ground';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const reviews = () => t.db.collection<Review>('reviews');
const read = async (id: number) => (await reviews().findOne({ id }, { projection: { _id: 0 } }))!;
const forgetMarker = () => t.db.collection('migrations').deleteOne({ _id: MARKER as never });

describe('migrateRemovalGround', () => {
  it('runs at start-up (its marker is there once the app has started)', async () => {
    expect(await t.db.collection('migrations').findOne({ _id: MARKER as never })).not.toBeNull();
  });

  it('renames the ground of reviews removed by an older version, without a new version or event', async () => {
    const shop = await t.createShop();
    const write = () =>
      t.services.reviews.create(shop.id, { name: 'Klant', email: 'klant@example.com', rating: 2, language: 'en' });
    const removedOld = await write();
    const removedNew = await write();
    const kept = await write();
    await t.services.reviews.softDelete(removedOld.id, 'offensive');
    await t.services.reviews.softDelete(removedNew.id, 'spam');
    // As an older version stored it.
    await reviews().updateOne(
      { id: removedOld.id },
      { $set: { removal_ground: 'offensive' } as never, $unset: { removalGround: '' } },
    );
    const before = { old: await read(removedOld.id), new: await read(removedNew.id), kept: await read(kept.id) };
    const events = (await queuedEvents(t.db)).length;

    await forgetMarker();
    expect(await migrateRemovalGround(t.services)).toBe(1);

    const { removal_ground: _gone, ...oldWithoutLegacy } = before.old as Review & { removal_ground?: string };
    expect(await read(removedOld.id)).toEqual({ ...oldWithoutLegacy, removalGround: 'offensive' });
    expect(await read(removedNew.id)).toEqual(before.new);
    expect(await read(kept.id)).toEqual(before.kept);
    expect(before.new.removalGround).toBe('spam');
    expect(await queuedEvents(t.db)).toHaveLength(events);
    expect(await reviews().countDocuments({ removal_ground: { $exists: true } } as never)).toBe(0);

    await forgetMarker();
    expect(await migrateRemovalGround(t.services)).toBe(0);
  });
});
