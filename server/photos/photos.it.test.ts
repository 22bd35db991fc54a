import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Collection } from 'mongodb';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, startTestApp, withAuth, type TestApp } from '../../test/harness.js';
import { heicHeader, jpegHeader, photoWithMetadata, pngBomb, SECRET_MAKE } from '../../test/photo-fixtures.js';
import type { Invitation } from '../invitations/store.js';
import type { Review } from '../reviews/model.js';
import type { Webshop } from '../webshops/store.js';
import { drainPhotoTasks } from './jobs.js';
import { payloadFor } from '../webhooks/payload.js';
import { removeExpiredPhotos } from '../moderation/service.js';
import { pendingPhotos } from './service.js';
import { newPhotoId } from './store.js';

let t: TestApp;
let shop: Webshop;
let dataDir: string;
const photoDir = () => join(dataDir, 'photos');
const filesOnDisk = () => {
  try {
    return readdirSync(photoDir()).sort();
  } catch {
    return [];
  }
};

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'photos-'));
  t = await startTestApp({ DATA_DIR: dataDir, BASE_URL: 'https://reviews.example' });
  shop = await t.createShop({ name: 'Foto Shop', url: 'https://foto.example/' });
});
afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

let counter = 0;
async function sentInvitation(): Promise<{ token: string; order: string }> {
  const order = `PH-${++counter}`;
  const res = await t.fetch(withAuth('/api/1.0/invitations.json', shop), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email: `jane${counter}@example.com`, order, language: 'en', customer_name: 'Jane' }),
  });
  expect((await res.json()).status).toBe('success');
  const token = `pho${String(counter).padStart(4, '0')}abcdefghijklmnopqrstu`;
  await t.db
    .collection<Invitation>('invitations')
    .updateOne({ shopId: shop.id, order }, { $set: { token, sent: new Date(), status: 'sent' } });
  return { token, order };
}

type Upload = { slot: number; bytes: Buffer; name: string; type?: string; alt?: string };

function reviewForm(fields: Record<string, string>, uploads: Upload[]): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const u of uploads) {
    // The declared type lies on purpose for some: only the bytes count.
    form.append(`photo_${u.slot}`, new Blob([new Uint8Array(u.bytes)], { type: u.type ?? 'image/jpeg' }), u.name);
    if (u.alt !== undefined) form.append(`photo_${u.slot}_alt`, u.alt);
  }
  return form;
}

const written = { rating: '4', name: 'Jane', comment: 'Lovely lamp, see the photos' };

const reviewOfOrder = (order: string) =>
  t.db.collection<Review>('reviews').findOne({ shopId: shop.id, order }) as Promise<Review | null>;

const getPhoto = (path: string) => t.fetch(path.replace('https://reviews.example', ''));

async function ratingsJson() {
  return (await t.fetch(withAuth('/api/1.0/ratings.json', shop, { limit: '100' }))).json();
}

describe('the review page takes photos', () => {
  let review: Review;
  const uploads: Upload[] = [];

  beforeAll(async () => {
    uploads.push(
      { slot: 1, bytes: await photoWithMetadata('jpeg'), name: 'lamp.jpg', alt: 'The lamp, switched on' },
      { slot: 2, bytes: await photoWithMetadata('png'), name: 'lamp.png', type: 'application/octet-stream' },
      { slot: 3, bytes: await photoWithMetadata('webp'), name: 'lamp.webp' },
      { slot: 5, bytes: await photoWithMetadata('avif'), name: 'lamp.txt', type: 'text/plain' },
    );
    const { token, order } = await sentInvitation();
    const res = await t.fetch(`/review/${token}`, { method: 'POST', body: reviewForm(written, uploads) });
    expect(res.status).toBe(200);
    review = (await reviewOfOrder(order))!;
  });

  it('saves the review at once, its photos waiting for the worker and not public yet', async () => {
    expect(review.comment).toBe(written.comment);
    expect(review.photos?.map((p) => p.state)).toEqual(['pending', 'pending', 'pending', 'pending']);
    expect(review.photos?.[0]?.alt).toBe('The lamp, switched on');
    for (const p of review.photos!) expect((await t.fetch(`/photos/${p.id}.webp`)).status).toBe(404);
    const listed = (await ratingsJson()).ratings.find((r: { id: number }) => r.id === review.id);
    expect(listed.photos).toEqual([]);
    // Stored as uploaded (streamed to disk), to be re-encoded.
    expect(filesOnDisk()).toEqual(review.photos!.map((p) => `${p.id}.upload`).sort());
  });

  it('re-encodes every format in the worker to WebP with no metadata left, rotated by its EXIF orientation', async () => {
    await drainPhotoTasks(t.services);
    const after = (await t.services.reviews.get(review.id))!;
    expect(after.photos?.map((p) => p.state)).toEqual(['shown', 'shown', 'shown', 'shown']);
    // The JPEG said "rotate 90°": 64×32 becomes 32×64.
    expect(after.photos?.map((p) => [p.width, p.height])).toEqual([
      [32, 64],
      [64, 32],
      [64, 32],
      [64, 32],
    ]);
    for (const p of after.photos!) {
      for (const path of [`/photos/${p.id}.webp`, `/photos/${p.id}-320.webp`]) {
        const res = await t.fetch(path);
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toBe('image/webp');
        expect(res.headers.get('x-content-type-options')).toBe('nosniff');
        expect(res.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
        expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
        expect(res.headers.get('cache-control')).toBe('public, max-age=86400');
        const bytes = Buffer.from(await res.arrayBuffer());
        expect(bytes.subarray(0, 4).toString('latin1')).toBe('RIFF');
        expect(bytes.subarray(8, 12).toString('latin1')).toBe('WEBP');
        // No EXIF, XMP or ICC chunk, and none of the camera's words or the GPS position anywhere in the bytes.
        for (const chunk of ['EXIF', 'XMP ', 'ICCP', SECRET_MAKE, 'GPS']) expect(bytes.includes(chunk)).toBe(false);
        const meta = await sharp(bytes).metadata();
        expect(meta.exif).toBeUndefined();
        expect(meta.icc).toBeUndefined();
        expect(meta.xmp).toBeUndefined();
      }
    }
    // The uploads are gone; only the encoded files stay.
    expect(filesOnDisk().some((f) => f.endsWith('.upload'))).toBe(false);
  });

  it('lists the photos in ratings.json with absolute addresses, sizes and alternative texts', async () => {
    const after = (await t.services.reviews.get(review.id))!;
    const listed = (await ratingsJson()).ratings.find((r: { id: number }) => r.id === review.id);
    const [first, second] = after.photos!;
    expect(listed.photos).toHaveLength(4);
    expect(listed.photos[0]).toStrictEqual({
      url: `https://reviews.example/photos/${first!.id}.webp`,
      thumb_url: `https://reviews.example/photos/${first!.id}-320.webp`,
      width: 32,
      height: 64,
      alt: 'The lamp, switched on',
    });
    expect(listed.photos[1].alt).toBe('Photo 2 of 4 by Jane');
    expect((await getPhoto(listed.photos[1].thumb_url)).status).toBe(200);
    expect(second).toBeDefined();
  });

  it('shows them on the shop page as sized, lazy thumbnails linking to the large photo, with one dialog', async () => {
    const after = (await t.services.reviews.get(review.id))!;
    const html = await (await t.fetch(`/webshops/${shop.id}`)).text();
    const first = after.photos![0]!;
    expect(html).toContain(
      `<a href="/photos/${first.id}.webp" data-photo data-width="32" data-height="64" aria-label="Open photo 1: The lamp, switched on">` +
        `<img src="/photos/${first.id}-320.webp" width="32" height="64" alt="The lamp, switched on" loading="lazy" decoding="async"/></a>`,
    );
    expect(html).toContain('alt="Photo 2 of 4 by Jane"');
    expect(html.match(/<dialog id="photo-dialog"/g)).toHaveLength(1);
  });

  it('removes the photos with the review: 404 at once, their files deleted by the worker', async () => {
    const ids = (await t.services.reviews.get(review.id))!.photos!.map((p) => p.id);
    await t.services.reviews.softDelete(review.id);
    for (const id of ids) expect((await t.fetch(`/photos/${id}.webp`)).status).toBe(404);
    await drainPhotoTasks(t.services);
    expect(filesOnDisk().filter((f) => ids.some((id) => f.startsWith(id)))).toEqual([]);
    expect(await t.db.collection('photos').countDocuments({ _id: { $in: ids } as never })).toBe(0);
  });
});

describe('refused files', () => {
  it.each([
    ['an HEIC photo', 'IMG_0042.HEIC', heicHeader(), 'image/heic'],
    ['a text file called .jpg', 'notes.jpg', Buffer.from('just some words, not a photo at all'), 'image/jpeg'],
    ['a decompression bomb (a PNG header declaring 10 gigapixels)', 'bomb.png', pngBomb(), 'image/png'],
  ])('%s is refused with a message in the form, the rest of the review kept', async (_what, name, bytes, type) => {
    const { token, order } = await sentInvitation();
    const before = filesOnDisk();
    const good = await photoWithMetadata('png');
    const res = await t.fetch(`/review/${token}`, {
      method: 'POST',
      body: reviewForm(written, [
        { slot: 1, bytes: good, name: 'fine.png' },
        { slot: 2, bytes, name, type, alt: 'my description' },
      ]),
    });
    expect(res.status).toBe(400);
    const html = await res.text();
    const message =
      name === 'bomb.png'
        ? 'This photo has more than 40 megapixels'
        : 'This file is not a photo we can read: use JPEG, PNG or WebP';
    expect(html).toContain(`${name}: ${message}`);
    // What was typed is still there; nothing was saved, and the accepted photo of that post is not kept either.
    expect(html).toContain(written.comment);
    expect(html).toContain('value="my description"');
    expect(html).toMatch(/<details class="photos" open/);
    expect(await reviewOfOrder(order)).toBeNull();
    expect(filesOnDisk()).toEqual(before);
  });

  it('refuses a file over 10 MB, having streamed it rather than held it', async () => {
    const { token, order } = await sentInvitation();
    const big = jpegHeader(1000, 1000, 10 * 1024 * 1024);
    const res = await t.fetch(`/review/${token}`, {
      method: 'POST',
      body: reviewForm(written, [{ slot: 1, bytes: big, name: 'huge.jpg' }]),
    });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('huge.jpg: This photo is larger than 10 MB');
    expect(await reviewOfOrder(order)).toBeNull();
    expect(filesOnDisk().filter((f) => f.endsWith('.upload') || f.endsWith('.part'))).toEqual([]);
  });

  it('takes at most five photos', async () => {
    const { token, order } = await sentInvitation();
    const png = await photoWithMetadata('png');
    const form = reviewForm(
      written,
      [1, 2, 3, 4, 5].map((slot) => ({ slot, bytes: png, name: `p${slot}.png` })),
    );
    form.append('photo_1', new Blob([new Uint8Array(png)]), 'sixth.png');
    const res = await t.fetch(`/review/${token}`, { method: 'POST', body: form });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('At most 5 photos can be added to a review');
    expect(await reviewOfOrder(order)).toBeNull();
  });
});

describe('photos follow their review', () => {
  /** A review with one encoded photo, written as `quarantine` says. */
  async function reviewWithPhoto(quarantine: boolean): Promise<{ review: Review; id: string }> {
    const id = newPhotoId();
    await t.services.photos.recordUpload(id, shop.id);
    await t.services.photoStorage.write(`${id}.upload`, await photoWithMetadata('jpeg'));
    const review = await t.services.reviews.create(shop.id, {
      name: 'Mia',
      email: `mia${++counter}@example.com`,
      rating: 5,
      language: 'en',
      quarantine,
      photos: pendingPhotos([{ id, alt: '' }]),
    });
    await t.services.photos.attach([id], review.id);
    await drainPhotoTasks(t.services);
    return { review, id };
  }

  it('are not public before the review is confirmed, and are once it is', async () => {
    const { review, id } = await reviewWithPhoto(true);
    expect((await t.services.reviews.get(review.id))!.photos![0]!.state).toBe('shown');
    expect((await t.fetch(`/photos/${id}.webp`)).status).toBe(404);
    expect((await t.fetch(`/photos/${id}-320.webp`)).status).toBe(404);
    await t.services.reviews.update(review.id, { quarantine: false });
    expect((await t.fetch(`/photos/${id}-320.webp`)).status).toBe(200);
  });

  it("are erased with the writer's data: files deleted, photos gone from the API", async () => {
    const { review, id } = await reviewWithPhoto(false);
    expect((await t.fetch(`/photos/${id}.webp`)).status).toBe(200);
    const res = await t.fetch(`/admin/api/customers?email=${encodeURIComponent(review.email)}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(res.status).toBe(200);
    expect((await t.fetch(`/photos/${id}.webp`)).status).toBe(404);
    await drainPhotoTasks(t.services);
    expect(filesOnDisk().filter((f) => f.startsWith(id))).toEqual([]);
    const listed = (await ratingsJson()).ratings.find((r: { id: number }) => r.id === review.id);
    expect(listed.photos).toEqual([]);
  });

  it('one photo can be removed by a redaction, the review kept; a complaint gives it back, six months delete it', async () => {
    const { review, id } = await reviewWithPhoto(false);
    // Reported from the report page, the photo named (a photo's "Report" link: ?photo=).
    const page = await (await t.fetch(`/reviews/${review.id}/report?lang=en&photo=${id}`)).text();
    expect(page).toContain('<legend>What should be checked?</legend>');
    expect(page).toMatch(new RegExp(`id="photo-${id}" name="photo" value="${id}" checked`));
    expect(page).toContain('Photo 1: Photo 1 of 1 by Mia');
    const token = /name="token" value="([^"]+)"/.exec(page)![1]!;
    const post = (photo: string) =>
      t.fetch(`/reviews/${review.id}/report?lang=en`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': '192.0.2.77' },
        body: new URLSearchParams({ token, ground: 'personal_data', text: 'My face is in the photo', photo }),
      });
    const wrong = await post('y'.repeat(22));
    expect(wrong.status).toBe(400);
    expect(await wrong.text()).toContain('Choose the whole review or one of its photos.');
    expect((await post(id)).status).toBe(200);
    const listed = await (await t.admin('/admin/api/reports?status=open&limit=100')).json();
    const reported = listed.reports.find((r: { review_id: number }) => r.review_id === review.id);
    expect(reported.photo).toEqual({ id, url: `https://reviews.example/photos/${id}.webp` });

    const decide = (reportId: string, body: unknown) =>
      t.admin(`/admin/api/reports/${reportId}/decision`, { method: 'POST', json: body });
    // Issue 21: a redaction carries its statement of reasons (e-mailed to the writer).
    const statement = 'The photo shows a person who did not agree to be shown.';
    const unknown = await decide(reported.id, {
      action: 'redact',
      ground: 'personal_data',
      statement,
      photo: 'x'.repeat(22),
    });
    expect(unknown.status).toBe(422);
    expect((await unknown.json()).error.message).toBe('photo: not a photo of this review');
    const res = await decide(reported.id, { action: 'redact', ground: 'personal_data', statement, photo: id });
    expect(res.status).toBe(200);
    const after = (await t.services.reviews.get(review.id))!;
    expect(after.deleted).toBe(false);
    expect(after.photos![0]!.state).toBe('withheld');
    expect((await t.fetch(`/photos/${id}.webp`)).status).toBe(404);
    expect((await ratingsJson()).ratings.find((r: { id: number }) => r.id === review.id).photos).toEqual([]);
    // Kept while the decision can be contested: no deletion queued.
    await drainPhotoTasks(t.services);
    expect(filesOnDisk().filter((f) => f.startsWith(id))).toHaveLength(2);

    // The writer's complaint is reversed: the photo is back.
    const complaint = await t.services.moderation.add({
      reviewId: review.id,
      shopId: shop.id,
      ground: 'personal_data',
      text: 'It is my own lamp, no face in it',
      email: '',
      source: 'appeal',
      appeal: { report: reported.id, role: 'writer', language: 'en' },
    });
    expect((await decide(complaint._id.toHexString(), { action: 'reverse' })).status).toBe(200);
    expect((await t.services.reviews.get(review.id))!.photos![0]!.state).toBe('shown');
    expect((await t.fetch(`/photos/${id}.webp`)).status).toBe(200);

    // Redacted again and not contested: when the six months are over the photo is removed and its files deleted.
    const second = await t.services.moderation.add({
      reviewId: review.id,
      shopId: shop.id,
      ground: 'personal_data',
      text: 'Still my face',
      email: '',
    });
    expect(
      (await decide(second._id.toHexString(), { action: 'redact', ground: 'personal_data', statement, photo: id }))
        .status,
    ).toBe(200);
    const sixMonthsOn = new Date(Date.now() + 200 * 86_400_000);
    expect(await removeExpiredPhotos(t.services, new Date())).toBe(0);
    expect(await removeExpiredPhotos(t.services, sixMonthsOn)).toBe(1);
    await t.services.moderation.dropExpired(sixMonthsOn);
    expect((await t.services.reviews.get(review.id))!.photos![0]!.state).toBe('removed');
    await drainPhotoTasks(t.services);
    expect(filesOnDisk().filter((f) => f.startsWith(id))).toEqual([]);
    expect(await removeExpiredPhotos(t.services, sixMonthsOn)).toBe(0);
  });

  it('a withheld photo is erased with the writer at once', async () => {
    const { review, id } = await reviewWithPhoto(false);
    const report = await t.services.moderation.add({
      reviewId: review.id,
      shopId: shop.id,
      ground: 'offensive',
      text: '',
      email: '',
      photo: id,
    });
    const statement = 'The photo is offensive.';
    const res = await t.admin(`/admin/api/reports/${report._id.toHexString()}/decision`, {
      method: 'POST',
      json: { action: 'redact', ground: 'offensive', statement, photo: id },
    });
    expect(res.status).toBe(200);
    const erased = await t.fetch(`/admin/api/customers?email=${encodeURIComponent(review.email)}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(erased.status).toBe(200);
    await drainPhotoTasks(t.services);
    expect(filesOnDisk().filter((f) => f.startsWith(id))).toEqual([]);
  });

  /** A photo stored and attached to the review, not encoded yet (the worker has not run). */
  async function addPendingPhoto(review: Review): Promise<string> {
    const id = newPhotoId();
    await t.services.photos.recordUpload(id, shop.id);
    await t.services.photoStorage.write(`${id}.upload`, await photoWithMetadata('png'));
    await t.services.reviews.update(review.id, (before) => ({
      photos: [...(before.photos ?? []), ...pendingPhotos([{ id, alt: 'Second one' }])],
    }));
    await t.services.photos.attach([id], review.id);
    return id;
  }

  /** The operator removes the review with a statement (issue 21): a decision that can be contested. */
  async function removeByOperator(review: Review): Promise<string> {
    const res = await t.admin(`/admin/api/reviews/${review.id}`, {
      method: 'DELETE',
      json: { ground: 'offensive', statement: 'The review insults the shop staff by name.' },
    });
    expect(res.status).toBe(204);
    const check = await t.db.collection('reports').findOne({ reviewId: review.id, source: 'check', status: 'removed' });
    return check!._id.toHexString();
  }

  const filesOf = (id: string) => filesOnDisk().filter((f) => f.startsWith(id));

  it('a removal withholds the photos: reversed on appeal they come back as they were; uncontested, six months delete them', async () => {
    const { review, id: shown } = await reviewWithPhoto(false);
    await t.services.reviews.update(review.id, {
      photos: [{ ...(await t.services.reviews.get(review.id))!.photos![0]!, alt: 'The lamp' }],
    });
    const pending = await addPendingPhoto(review);
    const contested = await removeByOperator(review);
    const removed = (await t.services.reviews.get(review.id))!;
    expect(removed.deleted).toBe(true);
    expect(removed.photos!.map((p) => [p.state, p.withheldFrom])).toEqual([
      ['withheld', 'shown'],
      ['withheld', 'pending'],
    ]);
    expect((await t.fetch(`/photos/${shown}.webp`)).status).toBe(404);
    // Kept while the removal can be contested: no deletion queued, and the pending one is not encoded meanwhile.
    await drainPhotoTasks(t.services);
    expect(filesOf(shown)).toEqual([`${shown}-320.webp`, `${shown}.webp`]);
    expect(filesOf(pending)).toEqual([`${pending}.upload`]);

    // The writer's complaint is reversed: the review comes back with its photos as they were.
    const complaint = await t.services.moderation.add({
      reviewId: review.id,
      shopId: shop.id,
      ground: 'offensive',
      text: 'It is a fair account of my visit',
      email: '',
      source: 'appeal',
      appeal: { report: contested, role: 'writer', language: 'en' },
    });
    const reversed = await t.admin(`/admin/api/reports/${complaint._id.toHexString()}/decision`, {
      method: 'POST',
      json: { action: 'reverse' },
    });
    expect(reversed.status).toBe(200);
    const restored = (await t.services.reviews.get(review.id))!;
    expect(restored.deleted).toBe(false);
    expect(restored.photos!.map((p) => [p.state, p.alt, p.withheldFrom])).toEqual([
      ['shown', 'The lamp', undefined],
      ['pending', 'Second one', undefined],
    ]);
    expect((await t.fetch(`/photos/${shown}.webp`)).status).toBe(200);
    // The one not encoded before the removal is encoded now, and shown.
    await drainPhotoTasks(t.services);
    expect((await t.services.reviews.get(review.id))!.photos!.map((p) => p.state)).toEqual(['shown', 'shown']);
    expect((await t.fetch(`/photos/${pending}-320.webp`)).status).toBe(200);
    const listed = (await ratingsJson()).ratings.find((r: { id: number }) => r.id === review.id);
    expect(listed.photos.map((p: { alt: string }) => p.alt)).toEqual(['The lamp', 'Second one']);

    // Removed again and not contested: when the six months are over the photos go for good, their files deleted.
    await removeByOperator((await t.services.reviews.get(review.id))!);
    await drainPhotoTasks(t.services);
    expect(filesOf(shown)).toHaveLength(2);
    expect(filesOf(pending)).toHaveLength(2);
    const sixMonthsOn = new Date(Date.now() + 200 * 86_400_000);
    expect(await removeExpiredPhotos(t.services, new Date())).toBe(0);
    expect(await removeExpiredPhotos(t.services, sixMonthsOn)).toBe(2);
    await t.services.moderation.dropExpired(sixMonthsOn);
    const gone = (await t.services.reviews.get(review.id))!;
    expect(gone.deleted).toBe(true);
    expect(gone.photos!.map((p) => [p.state, p.alt])).toEqual([
      ['removed', ''],
      ['removed', ''],
    ]);
    await drainPhotoTasks(t.services);
    expect(filesOf(shown)).toEqual([]);
    expect(filesOf(pending)).toEqual([]);
    expect(await removeExpiredPhotos(t.services, sixMonthsOn)).toBe(0);
  });

  it("a removed review's withheld photos are erased with the writer at once", async () => {
    const { review, id } = await reviewWithPhoto(false);
    await removeByOperator(review);
    await drainPhotoTasks(t.services);
    expect(filesOf(id)).toHaveLength(2);
    const erased = await t.fetch(`/admin/api/customers?email=${encodeURIComponent(review.email)}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(erased.status).toBe(200);
    expect((await t.services.reviews.get(review.id))!.photos![0]!.state).toBe('removed');
    await drainPhotoTasks(t.services);
    expect(filesOf(id)).toEqual([]);
  });

  // The spec's bare DELETE is a decision too (docs/decisions/integrity-delete.md): the writer is told and may
  // contest it, so its photos are withheld like any removal's, not deleted at once.
  it('a removal without a body (a generic statement, contestable) withholds the files like any decision', async () => {
    const { review, id } = await reviewWithPhoto(false);
    expect((await t.admin(`/admin/api/reviews/${review.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await t.services.reviews.get(review.id))!.photos![0]!.state).toBe('withheld');
    expect((await t.fetch(`/photos/${id}.webp`)).status).toBe(404);
    await drainPhotoTasks(t.services);
    expect(filesOf(id)).toHaveLength(2);
    const sixMonthsOn = new Date(Date.now() + 200 * 86_400_000);
    expect(await removeExpiredPhotos(t.services, sixMonthsOn)).toBe(1);
    await drainPhotoTasks(t.services);
    expect(filesOf(id)).toEqual([]);
  });

  it("the writer's edit page adds, describes and removes photos, up to 5 in all, without JavaScript", async () => {
    const { review, id } = await reviewWithPhoto(false);
    const editToken = 'e'.repeat(10) + String(review.id).padStart(33, '0');
    await t.services.reviews.update(review.id, { editToken });
    const path = `/edit/${editToken}`;
    const page = await (await t.fetch(path)).text();
    expect(page).toContain('enctype="multipart/form-data"');
    expect(page).toContain('<legend>Your photos</legend>');
    expect(page).toContain(`src="/photos/${id}-320.webp"`);
    expect(page).toContain(`name="current_${id}_remove"`);
    expect(page).toContain(`name="current_${id}_alt"`);
    // Four slots left of five.
    expect(page).toContain('name="photo_4"');
    expect(page).not.toContain('name="photo_5"');

    const fields = { rating: '4', name: 'Mia', comment: 'Now with more photos' };
    const post = (extra: Record<string, string>, uploads: Upload[]) =>
      t.fetch(path, { method: 'POST', body: reviewForm({ ...fields, ...extra }, uploads) });
    const jpeg = await photoWithMetadata('jpeg');

    // A refused file and a description too long: the form comes back with both, nothing changed or kept.
    const files = filesOnDisk();
    const refused = await post({ [`current_${id}_alt`]: 'x'.repeat(201) }, [
      { slot: 1, bytes: heicHeader(), name: 'IMG_1.HEIC', type: 'image/heic' },
      { slot: 2, bytes: jpeg, name: 'ok.jpg' },
    ]);
    expect(refused.status).toBe(400);
    const refusedPage = await refused.text();
    expect(refusedPage).toContain('IMG_1.HEIC: This file is not a photo we can read: use JPEG, PNG or WebP');
    expect(refusedPage).toContain('at most 200 characters');
    expect(filesOnDisk()).toEqual(files);
    expect((await t.services.reviews.get(review.id))!.photos).toHaveLength(1);

    // Two added (described), the first one's description changed.
    const added = await post({ [`current_${id}_alt`]: 'The lamp by night' }, [
      { slot: 1, bytes: jpeg, name: 'a.jpg', alt: 'The shade' },
      { slot: 2, bytes: await photoWithMetadata('png'), name: 'b.png' },
    ]);
    expect(added.status).toBe(200);
    let stored = (await t.services.reviews.get(review.id))!;
    expect(stored.photos!.map((p) => [p.state, p.alt])).toEqual([
      ['shown', 'The lamp by night'],
      ['pending', 'The shade'],
      ['pending', ''],
    ]);
    await drainPhotoTasks(t.services);
    const listed = (await ratingsJson()).ratings.find((r: { id: number }) => r.id === review.id);
    expect(listed.photos.map((p: { alt: string }) => p.alt)).toEqual([
      'The lamp by night',
      'The shade',
      'Photo 3 of 3 by Mia',
    ]);

    // More than five in all is refused; the uploads of that post are not kept.
    const before = filesOnDisk();
    const many = await post(
      {},
      [1, 2, 3].map((slot) => ({ slot, bytes: jpeg, name: `${slot}.jpg` })),
    );
    expect(many.status).toBe(400);
    expect(await many.text()).toContain('At most 5 photos can be added to a review');
    expect(filesOnDisk()).toEqual(before);

    // The first one removed: 404 at once, its files deleted by the worker; the others stay.
    const removed = await post({ [`current_${id}_remove`]: '1' }, []);
    expect(removed.status).toBe(200);
    expect(await removed.text()).not.toContain(`current_${id}_remove`);
    stored = (await t.services.reviews.get(review.id))!;
    expect(stored.photos!.map((p) => p.state)).toEqual(['removed', 'shown', 'shown']);
    expect((await t.fetch(`/photos/${id}.webp`)).status).toBe(404);
    await drainPhotoTasks(t.services);
    expect(filesOnDisk().filter((f) => f.startsWith(id))).toEqual([]);
    expect(filesOnDisk().filter((f) => f.startsWith(stored.photos![1]!.id))).toHaveLength(2);
  });

  it('are in ratings.json, the webhook body and the pop-up’s reviews as {url, thumb_url, width, height, alt}', async () => {
    const { review, id } = await reviewWithPhoto(false);
    const expected = {
      url: `https://reviews.example/photos/${id}.webp`,
      thumb_url: `https://reviews.example/photos/${id}-320.webp`,
      width: expect.any(Number),
      height: expect.any(Number),
      alt: 'Photo 1 of 1 by Mia',
    };
    const listed = (await ratingsJson()).ratings.find((r: { id: number }) => r.id === review.id);
    expect(listed.photos).toEqual([expected]);
    const stored = (await t.services.reviews.get(review.id))!;
    expect(JSON.parse(payloadFor('reviews.updated', stored, 'https://reviews.example')).photos).toEqual([expected]);
    const popup = await (await t.fetch(`/embed/${shop.id}/reviews.json?limit=20`)).json();
    const shown = popup.reviews.find((r: { id: number }) => r.id === review.id);
    expect(shown.photos).toEqual([expected]);
    expect(shown.photos[0].width).toBeGreaterThan(0);
  });

  it('are deleted with reviews nobody confirmed', async () => {
    const { review, id } = await reviewWithPhoto(true);
    await t.services.reviews.update(review.id, { confirmToken: 'c'.repeat(43) });
    expect(await t.services.reviews.removeUnconfirmed([review.id])).toBe(1);
    await drainPhotoTasks(t.services);
    expect(filesOnDisk().filter((f) => f.startsWith(id))).toEqual([]);
  });

  it('an upload no review claimed (the request failed half-way) is deleted by the worker after an hour', async () => {
    const id = newPhotoId();
    await t.services.photos.recordUpload(id, shop.id);
    await t.services.photoStorage.write(`${id}.upload`, await photoWithMetadata('png'));
    await drainPhotoTasks(t.services);
    expect(filesOnDisk()).toContain(`${id}.upload`);
    await t.db
      .collection('photos')
      .updateOne({ _id: id as never }, { $set: { created: new Date(Date.now() - 2 * 3_600_000) } });
    await drainPhotoTasks(t.services);
    expect(filesOnDisk().filter((f) => f.startsWith(id))).toEqual([]);
  });
});

describe('the pop-up takes photos', () => {
  const uploadPhoto = (bytes: Buffer, name: string, shopId = shop.id) => {
    const form = new FormData();
    form.append('photo', new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' }), name);
    return t.fetch(`/embed/${shopId}/photos?lang=en`, { method: 'POST', body: form });
  };
  const experience = (photos: unknown) =>
    t.fetch(`/embed/${shop.id}/experiences`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        rating: 5,
        name: 'Pia',
        email: `pia${++counter}@example.com`,
        comment: 'Lamp and shade',
        language: 'en',
        photos,
      }),
    });

  it('stores an upload as the review page does, refuses with the same messages, and the review takes it', async () => {
    const heic = await uploadPhoto(heicHeader(), 'IMG_7.HEIC');
    expect(heic.status).toBe(400);
    expect((await heic.json()).error.message).toBe(
      'IMG_7.HEIC: This file is not a photo we can read: use JPEG, PNG or WebP',
    );
    const bomb = await uploadPhoto(pngBomb(), 'huge.png');
    expect(bomb.status).toBe(400);
    expect((await bomb.json()).error.message).toContain('more than 40 megapixels');
    const notMultipart = await t.fetch(`/embed/${shop.id}/photos`, { method: 'POST', body: 'x' });
    expect(notMultipart.status).toBe(415);

    const ok = await uploadPhoto(await photoWithMetadata('jpeg'), 'lamp.jpg');
    expect(ok.status).toBe(201);
    const { id } = await ok.json();
    expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(filesOnDisk()).toContain(`${id}.upload`);

    // An id that is no upload of this shop is refused, and nothing is written.
    const unknown = await experience([{ id: 'z'.repeat(22), alt: '' }]);
    expect(unknown.status).toBe(400);
    expect(await experience([{ id, alt: 'x'.repeat(201) }])).toHaveProperty('status', 400);

    expect((await experience([{ id, alt: 'The shade, close up' }])).status).toBe(202);
    const review = (await t.db
      .collection<Review>('reviews')
      .findOne({ shopId: shop.id, 'photos.id': id })) as Review | null;
    expect(review!.photos).toEqual([expect.objectContaining({ id, state: 'pending', alt: 'The shade, close up' })]);
    expect((await t.services.photos.get(id))!.reviewId).toBe(review!.id);
    // Taken once only.
    expect((await experience([{ id, alt: '' }])).status).toBe(400);
    await drainPhotoTasks(t.services);
    expect((await t.services.reviews.get(review!.id))!.photos![0]!.state).toBe('shown');
  });
});

describe('PHOTO_REVIEW=operator', () => {
  let held: TestApp;
  let heldDir: string;
  beforeAll(async () => {
    heldDir = mkdtempSync(join(tmpdir(), 'photos-held-'));
    held = await startTestApp({ DATA_DIR: heldDir, PHOTO_REVIEW: 'operator' });
  });
  afterAll(async () => {
    await held.close();
    rmSync(heldDir, { recursive: true, force: true });
  });

  it('holds photos of every review, whatever its score, until the operator shows them', async () => {
    const heldShop = await held.createShop();
    const id = newPhotoId();
    await held.services.photos.recordUpload(id, heldShop.id);
    await held.services.photoStorage.write(`${id}.upload`, await photoWithMetadata('webp'));
    const review = await held.services.reviews.create(heldShop.id, {
      name: 'Ada',
      email: 'ada@example.com',
      rating: 5,
      language: 'en',
      photos: pendingPhotos([{ id, alt: '' }]),
    });
    await held.services.photos.attach([id], review.id);
    await drainPhotoTasks(held.services);
    expect((await held.services.reviews.get(review.id))!.photos![0]!.state).toBe('held');
    expect((await held.fetch(`/photos/${id}.webp`)).status).toBe(404);

    const list = await (await held.admin('/admin/api/photos/held')).json();
    expect(list.photos.map((p: { id: string }) => p.id)).toEqual([id]);
    const look = await held.admin(`/admin/api/photos/${id}`);
    expect(look.status).toBe(200);
    expect(look.headers.get('content-type')).toBe('image/webp');

    const shown = await held.admin(`/admin/api/photos/${id}/decision`, { method: 'POST', json: { action: 'show' } });
    expect(shown.status).toBe(200);
    expect((await held.fetch(`/photos/${id}.webp`)).status).toBe(200);
    expect((await (await held.admin('/admin/api/photos/held')).json()).photos).toEqual([]);
  });
});

describe('a photo queued while the worker hits a database error', () => {
  it('is encoded by the next run when the run that looked at it too early could not let go of it', async () => {
    // Issue 20: a photo stayed `pending`. A run found its upload not yet claimed by a review (the review was still
    // being written), and its release then failed (SQLITE_BUSY: the review's write was going on). The claim stayed
    // for the lease (two minutes), the run the review's write triggered read past it, and the next run was the
    // hourly one.
    const id = newPhotoId();
    await t.services.photos.recordUpload(id, shop.id);
    await t.services.photoStorage.write(`${id}.upload`, await photoWithMetadata('jpeg'));
    const deleteMany = Collection.prototype.deleteMany;
    Collection.prototype.deleteMany = function (this: Collection, ...args: Parameters<typeof deleteMany>) {
      if (this.collectionName !== 'photo_encodes_claims') return deleteMany.apply(this, args);
      Collection.prototype.deleteMany = deleteMany;
      return Promise.reject(new Error('database is locked (5) (SQLITE_BUSY)'));
    } as typeof deleteMany;
    try {
      await expect(drainPhotoTasks(t.services)).rejects.toThrow('SQLITE_BUSY');
    } finally {
      Collection.prototype.deleteMany = deleteMany;
    }
    const review = await t.services.reviews.create(shop.id, {
      name: 'Noa',
      email: `noa${++counter}@example.com`,
      rating: 5,
      language: 'en',
      photos: pendingPhotos([{ id, alt: '' }]),
    });
    await t.services.photos.attach([id], review.id);
    // The run the review's write triggers.
    await drainPhotoTasks(t.services);
    expect((await t.services.reviews.get(review.id))!.photos!.map((p) => p.state)).toEqual(['shown']);
  });
});
