// Photos (issue 20) in Chromium: a shopper adds two photos to a review with the keyboard alone, and opens one on
// the shop page in the dialog (Escape closes it, focus returns to the thumbnail); axe-core on both states.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, expect, type Page } from '@playwright/test';
import { MongoClient, type Db } from 'mongodb';
import { InvitationStore } from '../server/invitations/store.js';
import { WebshopStore, type Webshop } from '../server/webshops/store.js';
import { Caches } from '../server/cache.js';
import { photoWithMetadata } from '../test/photo-fixtures.js';
import { catchFileChoosers } from './file-chooser.js';

const base = () => process.env.WIDGET_BASE!;
const AXE = readFileSync(join('node_modules', 'axe-core', 'axe.min.js'), 'utf8');
let client: MongoClient;
let db: Db;
let shop: Webshop;

test.beforeAll(async () => {
  client = new MongoClient(process.env.E2E_MONGODB_URI!);
  await client.connect();
  db = client.db(process.env.E2E_MONGODB_DB!);
  shop = await new WebshopStore(db, new Caches({ ttlMs: 0, maxBytes: 1_000_000 }).cache('webshops')).create({
    name: 'Lampenwinkel',
    url: 'https://lamp.example/',
  });
});
test.afterAll(async () => {
  await client.close();
});

async function expectAccessible(page: Page, name: string) {
  await page.evaluate(AXE);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(): Promise<{ violations: { id: string; impact: string }[] }> } })
      .axe;
    return (await axe.run()).violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  });
  expect(violations, name).toEqual([]);
}

test('a shopper adds two photos with the keyboard and opens one on the shop page', async ({ page }) => {
  test.setTimeout(180_000);
  const added = await new InvitationStore(db).add(shop.id, {
    email: 'lamp@example.com',
    order: 'PHOTO-1',
    language: 'en',
    delay: 0,
    customerName: 'Jane',
    products: [],
    client: null,
    platformVersion: null,
    pluginVersion: null,
    maxPerEmail: null,
  });
  if (!added.added) throw new Error('invitation not added');
  const files = [
    { name: 'lamp.jpg', mimeType: 'image/jpeg', buffer: await photoWithMetadata('jpeg') },
    { name: 'shade.png', mimeType: 'image/png', buffer: await photoWithMetadata('png') },
  ];
  const choosers = await catchFileChoosers(page);
  await page.goto(`${base()}/review/${added.invitation.token}`);
  await page.getByLabel('5 stars').first().focus();
  await page.keyboard.press('Space');
  await page.getByLabel('Your review (optional)').focus();
  await page.keyboard.type('Warm light, see the photos.');
  // The photo picker: opened from its summary with Enter, each file input picked with Space.
  await page.locator('details.photos summary').focus();
  await page.keyboard.press('Enter');
  await expect(page.locator('details.photos')).toHaveAttribute('open', '');
  await expectAccessible(page, 'review form with the photo picker open');
  for (const [i, file] of files.entries()) {
    const input = page.getByLabel(`Photo ${i + 1}`, { exact: true });
    await input.focus();
    await expect(input).toBeFocused();
    await page.keyboard.press('Space');
    await (await choosers.next()).setFiles(file);
  }
  await page.getByLabel('Description of photo 1 (optional)').focus();
  await page.keyboard.type('The lamp on the desk');
  await page.getByRole('button', { name: 'Publish my review' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1 })).toContainText(/thank/i);

  // The worker encodes them: the shop page shows them once done (polled, generously).
  await expect
    .poll(
      async () => {
        await page.goto(`${base()}/webshops/${shop.id}`);
        return page.locator('ul.photos img').count();
      },
      { timeout: 90_000, intervals: [1000] },
    )
    .toBe(2);
  const thumb = page.getByRole('link', { name: 'Open photo 1: The lamp on the desk' });
  await thumb.focus();
  await page.keyboard.press('Enter');
  const dialog = page.locator('dialog#photo-dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog.locator('img')).toHaveAttribute('alt', 'The lamp on the desk');
  await expectAccessible(page, 'shop page with a photo open');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(thumb).toBeFocused();
});

/** The sum of layout shifts the page has recorded (buffered from its start), after its images have loaded. */
async function layoutShift(page: Page): Promise<number> {
  await page.waitForFunction(() => [...document.images].every((img) => img.complete));
  return page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        let sum = 0;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) sum += (entry as unknown as { value: number }).value;
        }).observe({ type: 'layout-shift', buffered: true });
        requestAnimationFrame(() => requestAnimationFrame(() => resolve(sum)));
      }),
  );
}

// The review of the first test (two encoded photos) is shown by the states below: the two run (and retry) together.
test.describe.configure({ mode: 'serial' });
test('the widget with photos=yes and the edit page with photos: no layout shift, axe-clean at 1280 and 390 px', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const review = await db.collection('reviews').findOne({ shopId: shop.id, 'photos.state': 'shown' });
  expect(review, 'the first test wrote a review with photos').not.toBeNull();
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    for (const [layout, view] of [
      ['new_default', 'list'],
      ['modern', 'list'],
      ['new_default', 'slider'],
    ]) {
      await page.goto(
        `${base()}/webshops/widget_html?id=${shop.id}&layout=${layout}&view=${view}&language=eng&photos=yes`,
      );
      const thumbs = page.locator('.ph img');
      await expect(thumbs.first()).toBeVisible();
      await expect(thumbs.first()).toHaveAttribute('width', '56');
      await expect(page.locator('.ph a').first()).toHaveAttribute('target', '_blank');
      expect(await layoutShift(page), `${layout} ${view} at ${width}`).toBe(0);
      await expectAccessible(page, `widget ${layout} ${view} photos=yes at ${width}`);
    }
    await page.goto(`${base()}/edit/${review!.editToken}`);
    await expect(page.getByRole('group', { name: 'Your photos' })).toBeVisible();
    await expect(page.getByLabel('Remove photo 1')).toBeVisible();
    await expectAccessible(page, `edit page with photos at ${width}`);
    // A description too long comes back with its message (the form's error state).
    const description = page.locator('input[name^="current_"][name$="_alt"]').first();
    await description.fill('x'.repeat(200));
    await description.evaluate((el) => {
      (el as HTMLInputElement).removeAttribute('maxlength');
      (el as HTMLInputElement).value += 'y';
    });
    await page.getByRole('button', { name: /save/i }).click();
    await expect(page.locator('.errors')).toBeVisible();
    await expectAccessible(page, `edit page with an error at ${width}`);
  }
});
