// "Export reviews" and "Export invitations" in the dashboard (issue 19): an owner downloads the reviews with the
// keyboard alone and gets the CSV a spreadsheet reads (BOM, header, the writer's address); a manager's file has no
// addresses; support sees no export. axe-core on the page with the export links.
import { readFileSync } from 'node:fs';
import { test, expect, type Page } from '@playwright/test';
import { expectAxeClean } from './a11y.js';
import { addReview, addUser, createShop, openPage, signedInContext, tabTo, uniqueEmail } from './dashboard-helpers.js';

test.use({ reducedMotion: 'reduce', viewport: { width: 1280, height: 800 } });

/** Tabs to the link and presses Enter; the file the browser saved, as text (BOM kept). */
async function downloadWithKeyboard(page: Page, name: string): Promise<string> {
  const link = page.getByRole('link', { name });
  await tabTo(page, link, { max: 200 });
  const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
  expect(download.suggestedFilename()).toMatch(/^shop-\d+-(reviews|invitations)-\d{4}-\d{2}-\d{2}\.(csv|json)$/);
  return new TextDecoder('utf-8', { ignoreBOM: true }).decode(readFileSync((await download.path())!));
}

test('an owner exports the reviews with the keyboard alone; a manager’s file has no addresses; support has no export', async ({
  browser,
}) => {
  const shop = await createShop('Export Shop');
  const writer = uniqueEmail('export-writer');
  await addReview(shop.id, { email: writer, rating: 5, comment: '=1+1 "quoted", fine' });
  const owner = uniqueEmail('export-owner');
  const manager = uniqueEmail('export-manager');
  const support = uniqueEmail('export-support');
  await addUser(shop.id, owner, 'owner');
  await addUser(shop.id, manager, 'manager');
  await addUser(shop.id, support, 'support');

  const asOwner = await signedInContext(browser, owner);
  const page = await asOwner.newPage();
  await openPage(page, 'reviews', shop.id);
  await expect(page.getByRole('heading', { name: 'Export reviews' })).toBeVisible();
  await expectAxeClean(page, 'page', 'reviews page with the export links');
  const csv = await downloadWithKeyboard(page, 'Download CSV (spreadsheet)');
  expect(csv.startsWith('\uFEFFid,status,origin,')).toBe(true);
  expect(csv).toContain(writer);
  expect(csv).toContain(`"'=1+1 ""quoted"", fine"`);
  await asOwner.close();

  const asManager = await signedInContext(browser, manager);
  const managerPage = await asManager.newPage();
  await openPage(managerPage, 'reviews', shop.id);
  const json = JSON.parse(await downloadWithKeyboard(managerPage, 'Download JSON')) as { email: unknown }[];
  expect(json).toHaveLength(1);
  expect(json[0]!.email).toBeNull();
  await openPage(managerPage, 'invitations', shop.id);
  await expect(managerPage.getByRole('heading', { name: 'Export invitations' })).toBeVisible();
  await asManager.close();

  const asSupport = await signedInContext(browser, support);
  const supportPage = await asSupport.newPage();
  await openPage(supportPage, 'reviews', shop.id);
  await expect(supportPage.getByRole('heading', { name: 'Export reviews' })).toHaveCount(0);
  await asSupport.close();
});
