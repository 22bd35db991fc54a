// The review policy page (issue 11) in Chromium: axe-core finds no serious or critical violation in either colour
// scheme and language, it reads the same without JavaScript, and the widget's "How reviews are checked" link leads
// to it.
import { test, expect } from '@playwright/test';
import { expectAxeClean } from './a11y.js';

const base = () => process.env.WIDGET_BASE!;
const policyUrl = (lang: string) => `${base()}/webshops/${process.env.WIDGET_SHOP}/policy?lang=${lang}`;

test.describe('the review policy page', () => {
  for (const colorScheme of ['light', 'dark'] as const) {
    for (const lang of ['en', 'nl', 'de', 'fr', 'es', 'it', 'hr']) {
      test(`axe-core clean (${lang}, ${colorScheme})`, async ({ page }) => {
        await page.emulateMedia({ colorScheme });
        await page.goto(policyUrl(lang));
        await expect(page.locator('h1')).toBeVisible();
        await expect(page.locator('table.removed tbody tr')).toHaveCount(6);
        await expectAxeClean(page, 'page', `policy page ${lang} ${colorScheme}`);
      });
    }
  }

  test.describe('without JavaScript', () => {
    test.use({ javaScriptEnabled: false });
    test('shows every section', async ({ page }) => {
      await page.goto(policyUrl('en'));
      for (const heading of [
        'How reviews are collected',
        'How each review is checked',
        'Publication',
        'How the score is computed',
        'Incentives',
        'Reviews removed in the last 12 months',
        'How to report a review',
      ]) {
        await expect(page.getByRole('heading', { name: heading })).toBeVisible();
      }
    });
  });

  test('is what the widget’s “How reviews are checked” link opens, in a new tab', async ({ page, context }) => {
    const q = new URLSearchParams({
      id: process.env.WIDGET_SHOP!,
      layout: 'new_default',
      language: 'eng',
      view: 'list',
      amount: '2',
    });
    await page.goto(`${base()}/webshops/widget_html?${q}`);
    const link = page.getByRole('link', { name: /How reviews are checked/ });
    await expect(link).toHaveAttribute('target', '_blank');
    const [opened] = await Promise.all([context.waitForEvent('page'), link.click()]);
    await opened.waitForLoadState();
    await expect(opened.locator('h1')).toContainText('How reviews are checked');
  });
});
