// The Privacy First consent pop-up on thank-you pages (another site than the service), for every shape of the
// order-data element that shop plugins print, through to what the shop's back end then sees over the REST API.
import { expect, test, type Page } from '@playwright/test';
import {
  apiCode,
  expectAccessible,
  hasConsent,
  hostUrl,
  open,
  recordRequests,
  screenshot,
  service,
  shopId,
  uniqueOrder,
} from './embed-helpers.js';
import { testConfig } from '../server/config.js';

const dialog = (page: Page) => page.locator('dialog[open]');

function thankYou(
  shape: string,
  order: string,
  extra: Record<string, string> = {},
  globals: Record<string, string> = { language: 'eng' },
) {
  return hostUrl('thankyou.html', globals, { shape, order, ...extra });
}

/** The shop's merchant view of its reviews (ratings.json lists quarantined reviews too, flagged). */
async function ratings(): Promise<{ name: string; comment: string | null; quarantine: boolean; id: number }[]> {
  const res = await fetch(`${service()}/api/1.0/ratings.json?id=${shopId()}&code=${apiCode()}&limit=100`);
  return (
    (await res.json()) as { ratings: { name: string; comment: string | null; quarantine: boolean; id: number }[] }
  ).ratings;
}

async function publicReviews(): Promise<{ name: string; verified: boolean }[]> {
  const res = await fetch(`${service()}/embed/${shopId()}/reviews.json?limit=20`);
  return ((await res.json()) as { reviews: { name: string; verified: boolean }[] }).reviews;
}

test.describe('every shape of the order-data element', () => {
  for (const shape of ['typed', 'untyped', 'escaped', 'strings', 'signed']) {
    test(`${shape}: the dialog offers both choices; "Ask me later" records consent`, async ({ page }) => {
      const order = uniqueOrder(shape);
      const requests = recordRequests(page);
      await open(page, thankYou(shape, order), { waitFor: 'dialog[open]' });
      await expect(dialog(page).getByRole('heading', { level: 2 })).toHaveText('Thank you for your order!');
      await expect(dialog(page).getByRole('button', { name: 'Write a review now' })).toBeFocused();
      // Nothing from the element has left the page before the choice (a signed element is only verified).
      const sent = requests.filter((u) => u.startsWith(service()) && (u.includes('/consent') || u.includes(order)));
      expect(sent).toEqual([]);
      expect(requests.some((u) => u.endsWith('/order/verify'))).toBe(shape === 'signed');
      expect(await hasConsent(order)).toBe(false);

      await dialog(page).getByRole('button', { name: 'Ask me later' }).click();
      await expect(dialog(page).getByRole('status')).toContainText('You will receive an invitation');
      expect(await hasConsent(order)).toBe(true);
      // Once per order: the page remembers the choice, hashed.
      const stored = await page.evaluate(() => [
        localStorage.getItem('_service_consent'),
        sessionStorage.getItem('_service_consent'),
      ]);
      expect(stored[0]).toBeTruthy();
      expect(stored[0]).not.toContain(order);
      await page.reload();
      await page.waitForTimeout(1500);
      await expect(dialog(page)).toHaveCount(0);
    });
  }
});

test('closing the dialog without a choice records nothing, and it is offered again', async ({ page }) => {
  const order = uniqueOrder('close');
  const requests = recordRequests(page);
  await open(page, thankYou('typed', order), { waitFor: 'dialog[open]' });
  await page.keyboard.press('Escape');
  await expect(dialog(page)).toHaveCount(0);
  expect(requests.filter((u) => u.includes('/consent'))).toEqual([]);
  expect(await hasConsent(order)).toBe(false);
  await page.reload();
  await expect(dialog(page)).toBeVisible();
  await dialog(page).getByRole('button', { name: 'Close' }).click();
  expect(await hasConsent(order)).toBe(false);
});

test('a wrong signature shows no dialog', async ({ page }) => {
  await open(page, thankYou('badsig', uniqueOrder('bad')), { waitFor: '.side' });
  await page.waitForTimeout(1500);
  await expect(dialog(page)).toHaveCount(0);
});

test('a shop that requires signed order data: no dialog for an unsigned element, the dialog for a signed one', async ({
  page,
}) => {
  const setting = (value: boolean) =>
    fetch(`${service()}/admin/api/webshops/${shopId()}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${testConfig().adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ require_signed_order_data: value }),
    });
  expect((await setting(true)).status).toBe(200);
  try {
    const requests = recordRequests(page);
    await open(page, thankYou('typed', uniqueOrder('signed-only')), { waitFor: '.side' });
    await page.waitForTimeout(1500);
    await expect(dialog(page)).toHaveCount(0);
    expect(requests.filter((u) => u.includes('/consent') || u.includes('/order/verify'))).toEqual([]);
    await open(page, thankYou('signed', uniqueOrder('signed-only')), { waitFor: 'dialog[open]' });
    await expect(dialog(page).getByRole('button', { name: 'Write a review now' })).toBeVisible();
  } finally {
    await setting(false);
  }
});

test('signed, "Write a review now": the review is published at once as a verified customer’s', async ({ page }) => {
  const order = uniqueOrder('signed-write');
  await open(page, thankYou('signed', order, { name: 'Jane' }, { sidebar_theme: 'light', language: 'eng' }), {
    waitFor: 'dialog[open]',
  });
  await expectAccessible(page, 'consent dialog');
  await screenshot(page, 'consent-light');
  await dialog(page).getByRole('button', { name: 'Write a review now' }).click();
  const form = dialog(page);
  await expect(form.getByRole('heading', { level: 2 })).toHaveText('Review Trapper Bikes');
  // The order data has the e-mail address and first name: no address field, the name prefilled, country from the language.
  await expect(form.getByLabel('Your e-mail address')).toHaveCount(0);
  await expect(form.getByLabel('Your name (shown with your review)')).toHaveValue('Jane');
  await expect(form.getByLabel('Country')).toHaveValue('GB');
  await expectAccessible(page, 'review form');
  await screenshot(page, 'review-form-light');
  // A shopper clicks the stars (the labels of the visually hidden radio buttons).
  await form.getByRole('group', { name: 'Overall score' }).locator('label', { hasText: '5 stars' }).click();
  await form.getByRole('group', { name: 'Delivery time' }).locator('label', { hasText: '4 stars' }).click();
  await expect(
    form.getByRole('group', { name: 'Overall score' }).getByRole('radio', { name: '5 stars' }),
  ).toBeChecked();
  const comment = `Signed and delivered ${order}`;
  await form.getByLabel('Your review', { exact: true }).fill(comment);
  await form.getByRole('button', { name: 'Send review' }).click();
  await expect(form.getByRole('status')).toHaveText('Thank you! Your review has been published.');
  expect(await hasConsent(order)).toBe(true);
  const rating = (await ratings()).find((r) => r.comment === comment);
  expect(rating).toMatchObject({ name: 'Jane', quarantine: false });
  await expect.poll(async () => (await publicReviews()).find((r) => r.name === 'Jane')?.verified).toBe(true);
});

test('unsigned, "Write a review now" without an e-mail in the order: asks for it, and the review waits for confirmation', async ({
  page,
}) => {
  const order = uniqueOrder('unsigned-write');
  await open(page, thankYou('typed', order, { email: '', name: 'Noor' }), { waitFor: 'dialog[open]' });
  await screenshot(page, 'consent-dark');
  await dialog(page).getByRole('button', { name: 'Write a review now' }).click();
  const form = dialog(page);
  await form.getByRole('button', { name: 'Send review' }).click();
  await expect(form).toContainText('Enter a valid e-mail address.');
  await form.getByRole('group', { name: 'Overall score' }).locator('label', { hasText: '4 stars' }).click();
  const comment = `Unsigned ${order}`;
  await form.getByLabel('Your review', { exact: true }).fill(comment);
  await form.getByLabel('Your e-mail address').fill(`noor-${Date.now()}@example.com`);
  await screenshot(page, 'review-form-dark');
  await form.getByRole('button', { name: 'Send review' }).click();
  await expect(form.getByRole('status')).toContainText('confirm your review with the link');
  expect(await hasConsent(order)).toBe(true);
  expect((await ratings()).find((r) => r.comment === comment)).toMatchObject({ name: 'Noor', quarantine: true });
});

test('a second browser for the same unsigned order: the first choice stands', async ({ page, browser }) => {
  const order = uniqueOrder('twice');
  await open(page, thankYou('untyped', order), { waitFor: 'dialog[open]' });
  await dialog(page).getByRole('button', { name: 'Ask me later' }).click();
  await expect(dialog(page).getByRole('status')).toBeVisible();
  const other = await browser.newContext();
  const second = await other.newPage();
  await open(second, thankYou('untyped', order), { waitFor: 'dialog[open]' });
  await dialog(second).getByRole('button', { name: 'Write a review now' }).click();
  await expect(dialog(second).getByRole('status')).toHaveText('You already made a choice for this order.');
  await other.close();
});

test('the dialog speaks the page language (Dutch by the shop default, German by the global)', async ({ page }) => {
  await open(page, thankYou('typed', uniqueOrder('nl'), {}, {}), { waitFor: 'dialog[open]' });
  await expect(dialog(page).getByRole('button', { name: 'Nu een beoordeling schrijven' })).toBeVisible();
  await expect(dialog(page).getByRole('button', { name: 'Vraag het me later' })).toBeVisible();
  await open(page, thankYou('typed', uniqueOrder('de'), {}, { language: 'deu' }), { waitFor: 'dialog[open]' });
  await expect(dialog(page).getByRole('button', { name: 'Jetzt bewerten' })).toBeVisible();
});
