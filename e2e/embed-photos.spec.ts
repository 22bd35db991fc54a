// Photos in the pop-up's review form (issue 20), on a demo thank-you page of another site: a shopper reaches the
// picker (in form.js, the lazily loaded second bundle) and adds two photos with the keyboard alone, sends the review,
// and the photos appear once the worker has encoded them and the review is public: at once with signed order data
// (1280 px), only after the writer's confirmation with unsigned data (390 px). axe-core on the picker's states (two
// photos picked; a refused file's message) at both widths.
import { expect, test, type Page } from '@playwright/test';
import { MongoClient } from 'mongodb';
import { photoWithMetadata, heicHeader } from '../test/photo-fixtures.js';
import { expectAccessible, hostUrl, open, service, shopId, uniqueOrder } from './embed-helpers.js';
import { catchFileChoosers, type FileChoosers } from './file-chooser.js';

const dialog = (page: Page) => page.locator('dialog[open]');

interface PublicReview {
  comment: string | null;
  photos?: { url: string; thumb_url: string; width: number; height: number; alt: string }[];
}
async function publicReviews(): Promise<PublicReview[]> {
  const res = await fetch(`${service()}/embed/${shopId()}/reviews.json?limit=20`);
  return ((await res.json()) as { reviews: PublicReview[] }).reviews;
}

/** Tab from the country select to the file input, Space, and the file given to the chooser that opens. */
async function pickByKeyboard(page: Page, choosers: FileChoosers, file: Parameters<FileChooserSetFiles>[0]) {
  const input = dialog(page).locator('#f-photos');
  // The last control before the picker's file input (a description and a remove button per photo come between).
  const before = dialog(page).locator('fieldset.photos button.lnk').last();
  if (await before.count()) await before.focus();
  else await dialog(page).getByLabel('Country').focus();
  await page.keyboard.press('Tab');
  await expect(input).toBeFocused();
  await page.keyboard.press('Space');
  await (await choosers.next()).setFiles(file);
}
type FileChooserSetFiles = Awaited<ReturnType<FileChoosers['next']>>['setFiles'];

/** The review's confirmation token (what the e-mail to the writer carries) and its photos' states, as stored. */
async function stored(comment: string): Promise<{ token: string; states: string[]; ids: string[] } | null> {
  const client = new MongoClient(process.env.E2E_MONGODB_URI!);
  try {
    await client.connect();
    const review = await client
      .db(process.env.E2E_MONGODB_DB!)
      .collection('reviews')
      .findOne({ comment }, { projection: { confirmToken: 1, photos: 1 } });
    if (!review) return null;
    const photos = (review.photos ?? []) as { id: string; state: string }[];
    return { token: review.confirmToken, states: photos.map((p) => p.state), ids: photos.map((p) => p.id) };
  } finally {
    await client.close();
  }
}

for (const width of [1280, 390]) {
  const signed = width === 1280;
  test(`at ${width} px: two photos added in the pop-up with the keyboard alone appear once encoded and public (${signed ? 'signed' : 'confirmed'})`, async ({
    page,
  }) => {
    test.setTimeout(150_000);
    await page.setViewportSize({ width, height: 900 });
    const choosers = await catchFileChoosers(page);
    const order = uniqueOrder(`photo-popup-${width}`);
    await open(
      page,
      hostUrl(
        'thankyou.html',
        { language: 'eng', sidebar_theme: 'light' },
        {
          shape: signed ? 'signed' : 'typed',
          order,
          name: 'Jane',
          email: `jane-${order}@example.com`,
        },
      ),
      {
        waitFor: 'dialog[open]',
      },
    );
    await dialog(page).getByRole('button', { name: 'Write a review now' }).focus();
    await page.keyboard.press('Enter');
    const form = dialog(page);
    await expect(form.getByRole('heading', { level: 2 })).toHaveText('Review Trapper Bikes');
    // The picker is part of form.js: there once its bundle has run.
    await expect(form.locator('#f-photos')).toBeAttached();

    await form.getByRole('group', { name: 'Overall score' }).getByRole('radio', { name: '5 stars' }).focus();
    await page.keyboard.press('Space');
    await expect(
      form.getByRole('group', { name: 'Overall score' }).getByRole('radio', { name: '5 stars' }),
    ).toBeChecked();
    const comment = `Two photos from the pop-up ${order}`;
    await form.getByLabel('Your review', { exact: true }).focus();
    await page.keyboard.type(comment);

    if (width === 390) {
      // A file that is no photo we can read: refused on sending, with the message, and the rest of the form kept.
      await pickByKeyboard(page, choosers, { name: 'phone.heic', mimeType: 'image/heic', buffer: heicHeader() });
      await form.getByRole('button', { name: 'Send review' }).focus();
      await page.keyboard.press('Enter');
      await expect(form.locator('#f-photos-err')).toBeVisible({ timeout: 30_000 });
      await expect(form.locator('#f-photos')).toBeFocused();
      await expect(form.getByLabel('Your review', { exact: true })).toHaveValue(comment);
      await expectAccessible(page, `picker with a refused file at ${width}`);
      await form.getByRole('button', { name: 'Remove photo 1' }).focus();
      await page.keyboard.press('Enter');
      await expect(form.getByRole('button', { name: 'Remove photo 1' })).toHaveCount(0);
    }

    const files = [
      { name: 'lamp.jpg', mimeType: 'image/jpeg', buffer: await photoWithMetadata('jpeg') },
      { name: 'shade.png', mimeType: 'image/png', buffer: await photoWithMetadata('png') },
    ];
    for (const file of files) await pickByKeyboard(page, choosers, file);
    await expect(form.getByRole('button', { name: /^Remove photo \d$/ })).toHaveCount(2);
    const alt = form.getByLabel('Description of photo 1, lamp.jpg');
    await alt.focus();
    await page.keyboard.type('The lamp on the desk');
    await expectAccessible(page, `picker with two photos at ${width}`);

    await form.getByRole('button', { name: 'Send review' }).focus();
    await page.keyboard.press('Enter');
    if (signed) {
      // The photos are uploaded first, one request each: on a busy machine that takes a while.
      await expect(form.getByRole('status')).toHaveText('Thank you! Your review has been published.', {
        timeout: 30_000,
      });
    } else {
      // Unsigned order data: nothing is public before the writer confirms, photos included, encoded or not.
      await expect(form.getByRole('status')).toContainText('confirm your review with the link', { timeout: 30_000 });
      await expect
        .poll(async () => (await stored(comment))?.states.join(','), { timeout: 90_000, intervals: [1000] })
        .toBe('shown,shown');
      expect((await publicReviews()).some((r) => r.comment === comment)).toBe(false);
      const waiting = (await stored(comment))!;
      for (const id of waiting.ids) expect((await fetch(`${service()}/photos/${id}-320.webp`)).status).toBe(404);
      const confirmed = await fetch(`${service()}/confirm/${waiting.token}`, { method: 'POST' });
      expect(confirmed.status).toBe(200);
    }

    // The review is public at once (signed order data); its photos once the worker has encoded them.
    await expect
      .poll(async () => (await publicReviews()).find((r) => r.comment === comment)?.photos?.length ?? 0, {
        timeout: 90_000,
        intervals: [1000],
      })
      .toBe(2);
    const shown = (await publicReviews()).find((r) => r.comment === comment)!.photos!;
    expect(shown[0]!.alt).toBe('The lamp on the desk');
    expect(shown[1]!.alt).toContain('Jane');
    for (const photo of shown) {
      const res = await fetch(photo.thumb_url);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/webp');
    }
    // And in the reviews pop-up on the shop's page.
    await open(page, hostUrl('shop.html', { language: 'eng', sidebar_theme: 'light' }));
    await page.locator('#link-reviews').click();
    const review = dialog(page).locator('.review').filter({ hasText: comment });
    await expect(review.locator('img.ph')).toHaveCount(2);
    await expect(review.getByRole('img', { name: 'The lamp on the desk' })).toBeVisible();
  });
}
