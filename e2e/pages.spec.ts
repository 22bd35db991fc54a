// The server-rendered shopper pages in Chromium: the invitation's review form, the edit and confirmation pages and
// the public shop page. Each is checked with axe-core (no serious or critical violation), worked with the keyboard,
// and the forms are also submitted with JavaScript switched off. Screenshots go to test-results/pages-screenshots.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, expect, type Page } from '@playwright/test';
import { MongoClient, type Db } from 'mongodb';
import { InvitationStore } from '../server/invitations/store.js';
import { ReviewStore } from '../server/reviews/store.js';
import type { NewReview } from '../server/reviews/model.js';
import { WebshopStore, type Webshop } from '../server/webshops/store.js';
import { Caches } from '../server/cache.js';

const base = () => process.env.WIDGET_BASE!;
const SHOTS = join('test-results', 'pages-screenshots');
const AXE = readFileSync(join('node_modules', 'axe-core', 'axe.min.js'), 'utf8');

let client: MongoClient;
let db: Db;
let shop: Webshop;
/** Where the edit and confirmation tests write, so the shop page's counts stay as seeded. */
let other: Webshop;
let counter = 0;

test.beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  client = new MongoClient(process.env.E2E_MONGODB_URI!);
  await client.connect();
  db = client.db(process.env.E2E_MONGODB_DB!);
  const webshops = new WebshopStore(db, new Caches({ ttlMs: 0, maxBytes: 1_000_000 }).cache('webshops'));
  other = await webshops.create({ name: 'Boekhandel', url: 'https://boek.example/' });
  shop = await webshops.create({
    name: 'Fietsenwinkel <De Trapper>',
    url: 'https://trapper.example/',
    approved_date: '2023-03-01',
    languages: [{ name: 'Nederlands', url: 'https://trapper.example/', iso: 'nl', all: false, main: true }],
  });
  const reviews = new ReviewStore(db);
  for (let i = 0; i < 12; i++) {
    const review = await reviews.create(shop.id, {
      name: i === 0 ? '<script>alert(1)</script>' : `Klant ${i}`,
      email: `k${i}@example.com`,
      rating: 3 + (i % 3),
      ratings: { shippingtime: 4, customerservice: 5, pricequality: 0, aftersale: 0 },
      language: 'nl',
      country: 'NL',
      comment: i === 0 ? 'Snel </p><script>alert(2)</script>' : 'Goed geholpen, snel geleverd.\nZeker een aanrader.',
      created: new Date(Date.UTC(2025, 4, 20 - i)),
      verified: i % 2 === 0,
      source: 'invitation',
    });
    if (i === 0)
      await reviews.update(review.id, {
        reply: { text: 'Dank je wel!', date: new Date(), notify: false, revision: 1, notified: null },
      });
  }
});

test.afterAll(async () => {
  await client.close();
});

/** An invitation as the mailer sent it; its link is what the e-mail carries. */
async function invitationLink(): Promise<string> {
  const result = await new InvitationStore(db).add(shop.id, {
    email: 'jane@example.com',
    order: `E2E-${++counter}`,
    language: 'nl',
    delay: 0,
    customerName: 'Jane',
    products: [
      {
        external_id: 'p1',
        name: 'Fietsbel "Ding-dong"',
        url: '',
        image_url: '',
        sku: '',
        gtin: '',
        mpn: '',
        brand: '',
      },
      { external_id: 'p2', name: 'Kettingslot', url: '', image_url: '', sku: '', gtin: '', mpn: '', brand: '' },
    ],
    client: null,
    platformVersion: null,
    pluginVersion: null,
    maxPerEmail: null,
  });
  if (!result.added) throw new Error('invitation not added');
  return `${base()}/review/${result.invitation.token}`;
}

async function review(extra: Partial<NewReview>) {
  return new ReviewStore(db).create(other.id, {
    name: 'Jane',
    email: 'jane@example.com',
    rating: 3,
    language: 'nl',
    comment: 'Redelijk',
    source: 'popup',
    ...extra,
  });
}

async function expectAccessible(page: Page, name: string) {
  await page.evaluate(AXE);
  const results = await page.evaluate(() =>
    (
      window as unknown as {
        axe: { run(): Promise<{ violations: { id: string; impact: string; nodes: { target: unknown }[] }[] }> };
      }
    ).axe.run(),
  );
  const serious = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${JSON.stringify(v.nodes.map((n) => n.target))}`);
  expect(serious, name).toEqual([]);
}

const shot = (page: Page, name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });

test.describe('review form from the invitation e-mail', () => {
  test('is accessible, rated with the keyboard, and writes a review', async ({ page }) => {
    await page.goto(await invitationLink());
    await expect(page).toHaveTitle('Beoordeel Fietsenwinkel <De Trapper> | Service');
    await expect(page.locator('html')).toHaveAttribute('lang', 'nl');
    await expectAccessible(page, 'review form');

    // Star inputs are a radio group: arrow keys move the choice, and the focus is visible.
    await page.locator('#rating-1').focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await expect(page.locator('#rating-4')).toBeChecked();
    await expect(page.locator('#rating-4')).toBeFocused();
    const outline = await page.locator('label[for="rating-4"]').evaluate((el) => getComputedStyle(el).outlineStyle);
    expect(outline).toBe('solid');

    // People click the stars (the labels); the radios themselves are visually hidden.
    await page.locator('label[for="shippingtime-5"]').click();
    await expect(
      page.getByRole('group', { name: /Levertijd/ }).getByRole('radio', { name: '5 sterren' }),
    ).toBeChecked();
    await page.getByLabel('Je review (optioneel)').fill('Prima winkel');
    await page.locator('label[for="product_0_rating-4"]').click();
    await expect(
      page.getByRole('group', { name: /Oordeel over Fietsbel/ }).getByRole('radio', { name: '4 sterren' }),
    ).toBeChecked();
    await shot(page, 'review-form');
    await page.getByRole('button', { name: 'Review plaatsen' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Bedankt voor je review');
    await expectAccessible(page, 'thanks page');
    await shot(page, 'review-thanks');

    // The link works once.
    await page.goBack();
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Je hebt deze review al geschreven');
    await expectAccessible(page, 'used link');
  });

  test('with JavaScript: counts the characters left and lets the form be sent only once', async ({ page }) => {
    await page.goto(await invitationLink());
    await page.getByLabel('Je review (optioneel)').fill('Prima winkel');
    const max = await page.locator('#comment').evaluate((el) => (el as HTMLTextAreaElement).maxLength);
    await expect(page.locator('#comment-left')).toHaveText(`Nog ${max - 'Prima winkel'.length} tekens`);
    await expect(page.locator('#comment')).toHaveAttribute('aria-describedby', /comment-left/);
    // A second submission while the first is on its way (a double click) is cancelled, and the button says so.
    const [first, second, disabled] = await page.locator('form').evaluate((form) => {
      const events = [new SubmitEvent('submit', { cancelable: true }), new SubmitEvent('submit', { cancelable: true })];
      for (const e of events) form.dispatchEvent(e);
      return [
        events[0]!.defaultPrevented,
        events[1]!.defaultPrevented,
        form.querySelector('button[type=submit]')!.getAttribute('aria-disabled'),
      ];
    });
    expect([first, second, disabled]).toEqual([false, true, 'true']);
  });

  test('works without JavaScript', async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(await invitationLink());
    await page.locator('label[for="rating-3"]').click();
    await page.getByLabel('Je naam').fill('Jan zonder JS');
    await page.getByRole('button', { name: 'Review plaatsen' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Bedankt voor je review');
    await context.close();
  });

  test('explains what to correct, next to the field, accessibly', async ({ page }) => {
    await page.goto(await invitationLink());
    // Past the browser's own check, to see the server's answer.
    await page.evaluate(() => document.querySelector('form')!.setAttribute('novalidate', ''));
    await page.getByLabel('Je naam').fill('');
    await page.getByRole('button', { name: 'Review plaatsen' }).click();
    await expect(page.getByRole('alert')).toContainText('Kies een totaaloordeel');
    await expect(page.locator('#name')).toHaveAttribute('aria-invalid', 'true');
    await expectAccessible(page, 'form with errors');
    await shot(page, 'review-form-errors');
  });

  test('fits a narrow screen', async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    await page.goto(await invitationLink());
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await expectAccessible(page, 'narrow review form');
    await shot(page, 'review-form-narrow');
  });

  test('answers an unknown link with a readable page', async ({ page }) => {
    const res = await page.goto(`${base()}/review/doesnotexistdoesnotexist`);
    expect(res!.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expectAccessible(page, 'unknown link');
  });
});

test('edit page changes the review', async ({ page }) => {
  const written = await review({ editToken: `e2e-edit-${++counter}-abcdefghijklmnop`, verified: true });
  await page.goto(`${base()}/edit/${written.editToken}`);
  await expect(page.locator('#rating-3')).toBeChecked();
  await expectAccessible(page, 'edit page');
  await page.locator('#rating-3').focus();
  await page.keyboard.press('ArrowLeft');
  await expect(page.locator('#rating-2')).toBeChecked();
  await page.getByRole('button', { name: 'Wijzigingen opslaan' }).click();
  await expect(page.getByRole('status')).toHaveText('Je wijzigingen zijn opgeslagen.');
  await expectAccessible(page, 'edit saved');
  await shot(page, 'edit-saved');
});

test('confirmation page publishes only on the button', async ({ page }) => {
  const waiting = await review({
    quarantine: true,
    confirmToken: `e2e-confirm-${++counter}-abcdefghijk`,
    comment: 'Wacht op <b>bevestiging</b>',
  });
  await page.goto(`${base()}/confirm/${waiting.confirmToken}`);
  await expect(page.getByText('Wacht op <b>bevestiging</b>')).toBeVisible();
  await expectAccessible(page, 'confirm page');
  await shot(page, 'confirm');
  await page.getByRole('button', { name: 'Bevestigen en plaatsen' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Je review is geplaatst');
  await expectAccessible(page, 'confirmed page');
});

test.describe('public shop page', () => {
  test('shows score, badges and reviews, with JSON-LD, accessibly', async ({ page }) => {
    await page.goto(`${base()}/webshops/${shop.id}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Reviews van Fietsenwinkel <De Trapper>');
    await expect(page.getByRole('article')).toHaveCount(10);
    await expect(page.getByRole('heading', { name: '<script>alert(1)</script>' })).toBeVisible();
    await expect(page.getByText('Dank je wel!')).toBeVisible();
    const jsonLd = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent())!);
    // 12 seeded, plus those the review form tests wrote (when they ran first).
    expect(jsonLd.aggregateRating).toMatchObject({ '@type': 'AggregateRating', bestRating: 10, worstRating: 1 });
    const count = jsonLd.aggregateRating.ratingCount as number;
    expect(count).toBeGreaterThanOrEqual(12);
    await expectAccessible(page, 'shop page');
    await shot(page, 'shop-page');

    await page.getByRole('link', { name: 'Oudere reviews' }).click();
    await expect(page.getByRole('article')).toHaveCount(count - 10);
    await expectAccessible(page, 'shop page 2');
  });

  test('answers an unknown shop with a readable page', async ({ page }) => {
    const res = await page.goto(`${base()}/webshops/99999999`);
    expect(res!.status()).toBe(404);
    await expectAccessible(page, 'unknown shop');
  });
});
