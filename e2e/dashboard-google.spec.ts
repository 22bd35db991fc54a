// The dashboard's Google section (issue 22): the feed's address, its rotation with the keyboard alone, and Google's
// thresholds with this shop's figures, checked by axe-core (no serious or critical violation) in both themes at a
// desktop and a phone width, with every control reached by Tab.
import { test, expect, type Page } from '@playwright/test';
import { expectAxeClean, expectKeyboardReach } from './a11y.js';
import { addUser, base, seedShop, signedInContext, tabTo, type Shop } from './dashboard-helpers.js';

const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
];
const THEMES = ['light', 'dark'] as const;

test.use({ reducedMotion: 'reduce' });

let shop: Shop;
let owner: string;

test.beforeAll(async () => {
  // The seeded reviews are written through the operator API, as imports: the section says they are not in the feed.
  shop = await seedShop('Google Fietsen', 3);
  owner = `google-owner.${test.info().workerIndex}.${Date.now().toString(36)}@fietsen.example`;
  await addUser(shop.id, owner, 'owner');
});

async function openGoogle(page: Page): Promise<void> {
  await page.goto(`${base()}/dashboard/google?shop=${shop.id}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Google' })).toBeVisible();
  await expect(page.getByText(/google-product-reviews\.xml\?key=/)).toBeVisible();
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
}

for (const viewport of VIEWPORTS) {
  test(`the Google section in both themes at ${viewport.width} px`, async ({ browser }) => {
    for (const theme of THEMES) {
      const context = await signedInContext(browser, owner, { viewport, colorScheme: theme, reducedMotion: 'reduce' });
      const page = await context.newPage();
      await openGoogle(page);
      await expect(page.getByRole('table', { name: 'Google’s thresholds' })).toBeVisible();
      await expect(page.getByRole('note')).toContainText('never sent to Google');
      await expectAxeClean(page, 'page', `google (${theme}, ${viewport.width} px)`);
      if (viewport.width === 1280 && theme === 'light') await expectKeyboardReach(page, 'page', 'google');
      await context.close();
    }
  });
}

test('the feed key is rotated with the keyboard alone, and the new address shown and announced', async ({
  browser,
}) => {
  const context = await signedInContext(browser, owner, { viewport: VIEWPORTS[0] });
  const page = await context.newPage();
  await openGoogle(page);
  const before = await page.getByText(/google-product-reviews\.xml\?key=/).textContent();
  await tabTo(page, page.getByRole('button', { name: 'Rotate the feed key' }));
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Rotate the feed key?' });
  await expect(dialog).toBeVisible();
  await expectAxeClean(page, 'page', 'google: rotate dialog');
  // The dialog opens on Cancel; Shift+Tab reaches the rotation itself.
  await tabTo(page, dialog.getByRole('button', { name: 'Rotate the feed key' }), { back: true });
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expect(page.getByText(/google-product-reviews\.xml\?key=/)).not.toHaveText(before!);
  await expect(page.getByText('The feed key was rotated.', { exact: false })).toBeAttached();
  const old = await fetch(before!.trim());
  expect(old.status).toBe(404);
  await context.close();
});
