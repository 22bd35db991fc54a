// The start-up migration of review origins (issue 11): reviews stored before origins existed read with theirs (the
// updates write only the reviews whose `verified` changes), without events or new versions, and a second run
// changes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.js';
import { invitationInput } from '../../test/invitations.js';
import { orderSignature } from '../consents/signature.js';
import { migrateReviewOrigins } from './review-origins.js';
import { originFields } from '../reviews/origin.js';
import type { NewReview, Review } from '../reviews/model.js';
import { queuedEvents } from '../../test/webhook-events.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const reviews = () => t.db.collection<Review>('reviews');
const ORIGIN_FIELDS = {
  origin: '',
  incentivised: '',
  imported_from: '',
  original_date: '',
  source_verified: '',
} as const;

/** A review as an older version stored it: no origin fields, and `legacy` as it was then. */
async function legacy(shopId: number, input: Partial<NewReview>, state: Record<string, unknown> = {}): Promise<number> {
  const review = await t.services.reviews.create(shopId, {
    name: 'Klant',
    email: 'klant@example.com',
    rating: 4,
    language: 'en',
    ...input,
  });
  await reviews().updateOne({ id: review.id }, { $unset: ORIGIN_FIELDS, $set: state });
  return review.id;
}

const read = async (id: number) => (await reviews().findOne({ id }, { projection: { _id: 0 } }))!;

describe('migrateReviewOrigins', () => {
  it('runs at start-up (its marker is there once the app has started)', async () => {
    expect(await t.db.collection('migrations').findOne({ _id: 'reviews.origin' as never })).not.toBeNull();
  });

  it('sets each review’s origin by how it was written, once, without events or version bumps', async () => {
    const shop = await t.createShop();
    const signedOrder = { webshopId: shop.id, orderNumber: 'S-1', email: 'sig@example.com' };
    const consent = await t.fetch(`/embed/${shop.id}/consent`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        order: signedOrder,
        signature: orderSignature(signedOrder, shop.id, shop.code),
        choice: 'ask_later',
        language: 'en',
        textVersion: 'en.1',
      }),
    });
    expect(consent.status).toBe(201);
    await t.services.invitations.add(shop.id, invitationInput('inv@example.com', 'I-1'));

    // Before the hardening issue an e-mail confirmation made a pop-up review verified, and set no emailConfirmed.
    const noEmailConfirmed = { verified: true };
    const ids = {
      invitation: await legacy(shop.id, { source: 'invitation', verified: true, order: 'A-1' }),
      form: await legacy(shop.id, { source: 'form', emailConfirmed: true }),
      importClaimed: await legacy(shop.id, { source: 'import', verified: true }),
      importPlain: await legacy(shop.id, { source: 'import' }),
      popupSigned: await legacy(shop.id, { source: 'popup', order: 'S-1', email: 'sig@example.com' }, noEmailConfirmed),
      popupInvited: await legacy(
        shop.id,
        { source: 'popup', order: 'I-1', email: 'INV@example.com' },
        noEmailConfirmed,
      ),
      popupInvitedOtherAddress: await legacy(
        shop.id,
        { source: 'popup', order: 'I-1', email: 'eve@example.com' },
        noEmailConfirmed,
      ),
      popupConfirmedOnly: await legacy(shop.id, { source: 'popup', order: 'X-1' }, noEmailConfirmed),
      popupHardenedVerified: await legacy(shop.id, {
        source: 'popup',
        order: 'X-2',
        verified: true,
        emailConfirmed: false,
      }),
    };
    for (const id of [ids.popupSigned, ids.popupInvited, ids.popupInvitedOtherAddress, ids.popupConfirmedOnly]) {
      await reviews().updateOne({ id }, { $unset: { emailConfirmed: '' } });
    }
    const before = new Map<number, Review>();
    for (const id of Object.values(ids)) before.set(id, await read(id));
    const events = (await queuedEvents(t.db)).length;

    await t.db.collection('migrations').deleteOne({ _id: 'reviews.origin' as never });
    await migrateReviewOrigins(t.services);

    // As every reader sees it: the stored fields, or their defaults on reviews the migration had no need to write.
    const origin = async (id: number) => {
      const r = await read(id);
      return { origin: originFields(r).origin, verified: r.verified };
    };
    expect(await origin(ids.invitation)).toEqual({ origin: 'verified_order', verified: true });
    expect(await origin(ids.form)).toEqual({ origin: 'email_confirmed', verified: false });
    expect(await origin(ids.importClaimed)).toEqual({ origin: 'imported', verified: false });
    expect((await read(ids.importClaimed)).source_verified).toBe(true);
    expect(await origin(ids.importPlain)).toEqual({ origin: 'imported', verified: false });
    expect((await read(ids.importPlain)).source_verified ?? false).toBe(false);
    expect(await origin(ids.popupSigned)).toEqual({ origin: 'verified_order', verified: true });
    expect(await origin(ids.popupInvited)).toEqual({ origin: 'verified_order', verified: true });
    expect(await origin(ids.popupInvitedOtherAddress)).toEqual({ origin: 'email_confirmed', verified: false });
    expect(await origin(ids.popupConfirmedOnly)).toEqual({ origin: 'email_confirmed', verified: false });
    expect(await origin(ids.popupHardenedVerified)).toEqual({ origin: 'verified_order', verified: true });
    for (const id of Object.values(ids)) {
      const after = await read(id);
      expect(originFields(after)).toMatchObject({ incentivised: false, imported_from: null, original_date: null });
      expect(after.version).toBe(before.get(id)!.version);
      expect(after.modified).toEqual(before.get(id)!.modified);
    }
    expect(await queuedEvents(t.db)).toHaveLength(events);
    // Only reviews whose verified mark changes are written (each write costs ~10 ms on FerretDB, at start-up).
    const written = Object.entries(ids)
      .filter(([, id]) => before.get(id)!.origin === undefined)
      .map(([name]) => name);
    const stored = await Promise.all(Object.values(ids).map(async (id) => (await read(id)).origin !== undefined));
    expect(written.filter((_, i) => stored[i])).toEqual([
      'importClaimed',
      'popupInvitedOtherAddress',
      'popupConfirmedOnly',
    ]);

    // Idempotent: with the marker it reads only the marker; without it, reviews that have an origin are left alone.
    await reviews().updateOne({ id: ids.form }, { $set: { incentivised: true } });
    await migrateReviewOrigins(t.services);
    await t.db.collection('migrations').deleteOne({ _id: 'reviews.origin' as never });
    await migrateReviewOrigins(t.services);
    expect(originFields(await read(ids.form))).toMatchObject({ origin: 'email_confirmed', incentivised: true });
    for (const id of Object.values(ids)) expect((await read(id)).version).toBe(before.get(id)!.version);
  });
});
