// "Import reviews" in the dashboard (issue 19): an owner imports a Trustpilot export with the keyboard alone: chooses
// the file, answers the question of the order of day and month, sees the preview (the reviews as they will appear,
// the problems with their line numbers, the counts, the Google warning) and the upload's progress, imports, and sees
// the import listed as awaiting approval. The operator approves it (operator API); the list shows the worker's
// progress up to done, and the reviews are on the shop's page. axe-core on every state of the import screen.
import { test, expect, type Page } from '@playwright/test';
import { expectAxeClean } from './a11y.js';
import {
  addUser,
  base,
  createShop,
  horizontalOverflow,
  openPage,
  signedInContext,
  tabTo,
  uniqueEmail,
} from './dashboard-helpers.js';

test.use({ reducedMotion: 'reduce', viewport: { width: 1280, height: 800 } });

/** Dates that read both ways (03/04/2024), a reply, and a row whose rating cannot be read (line 4). */
const FILE = [
  'Review Id,Review Created (UTC),Review Username,Review User Email,Review Title,Review Content,Review Stars,Company Response,Company Reply Date (UTC)',
  'tp-1,03/04/2024 10:00,Marieke Bakker,marieke@example.com,Snelle levering,"Fiets kwam binnen twee dagen, top!",5,Dank je wel Marieke!,05/04/2024 09:00',
  'tp-2,04/05/2024 12:30,Jeroen de Vries,jeroen@example.com,Goed zadel,Prima zadel en vriendelijke hulp.,4,,',
  'tp-3,06/07/2024 08:00,Kees,kees@example.com,Vaag,Geen sterren,x,,',
].join('\r\n');

async function operator(method: string, path: string): Promise<unknown> {
  const res = await fetch(`${base()}${path}`, {
    method,
    headers: { authorization: `Bearer ${process.env.E2E_ADMIN_TOKEN}` },
  });
  expect(res.status, `${method} ${path}`).toBeLessThan(300);
  return res.json();
}

async function axe(page: Page, what: string): Promise<void> {
  await expectAxeClean(page, 'page', `import screen: ${what}`);
}

test('an owner imports a file with the keyboard alone, and after approval its reviews are on the shop page', async ({
  browser,
}) => {
  const shop = await createShop('Import Tweewielers');
  const owner = uniqueEmail('import-owner');
  await addUser(shop.id, owner, 'owner');
  const context = await signedInContext(browser, owner);
  const page = await context.newPage();
  await openPage(page, 'import', shop.id);
  const main = page.getByRole('main');
  await expect(main.getByText('No imports yet.')).toBeVisible();
  await axe(page, 'empty');

  // The file, chosen from the file input reached with Tab and opened with the keyboard.
  const input = main.getByLabel('Review export file (CSV or JSON)');
  await tabTo(page, input);
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.keyboard.press('Space')]);
  await chooser.setFiles({ name: 'trustpilot-export.csv', mimeType: 'text/csv', buffer: Buffer.from(FILE) });
  await tabTo(page, main.getByRole('button', { name: 'Show preview' }));
  await page.keyboard.press('Enter');

  // Its dates read both ways: the question takes the focus.
  const dayFirst = main.getByRole('radio', { name: /Day first/ });
  await expect(main.getByRole('group', { name: 'How are the dates in this file written?' })).toBeVisible();
  await expect(dayFirst).toBeFocused();
  await axe(page, 'date order question');
  await page.keyboard.press('Space');
  await expect(dayFirst).toBeChecked();
  await tabTo(page, main.getByRole('button', { name: 'Show preview' }));
  await page.keyboard.press('Enter');

  // The preview: its heading takes the focus; the upload's progress is shown complete.
  await expect(main.getByRole('heading', { name: 'Preview of trustpilot-export.csv' })).toBeFocused();
  const upload = main.getByRole('progressbar', { name: 'Upload' });
  await expect(upload).toHaveAttribute('value', '100');
  await expect(main.getByText('Fiets kwam binnen twee dagen, top!')).toBeVisible();
  await expect(main.getByText('Dank je wel Marieke!')).toBeVisible();
  await expect(main.getByText('Imported from Trustpilot').first()).toBeVisible();
  await expect(main.getByText(/^Line 4: /)).toBeVisible();
  await expect(main.getByText(/never go to Google/)).toBeVisible();
  const counts = main.locator('dl.counts');
  await expect(counts.getByText('To import')).toBeVisible();
  await expect(counts.locator('div', { hasText: 'To import' }).locator('dd')).toHaveText('2');
  await expect(counts.locator('div', { hasText: 'Rows with problems' }).locator('dd')).toHaveText('1');
  await axe(page, 'preview');
  await page.setViewportSize({ width: 360, height: 640 });
  expect(await horizontalOverflow(page), 'the preview scrolls sideways at 360 px').toBeLessThanOrEqual(0);
  await axe(page, 'preview on a phone');
  await page.setViewportSize({ width: 1280, height: 800 });

  await tabTo(page, main.getByRole('button', { name: 'Import 2 reviews' }));
  await page.keyboard.press('Enter');
  await expect(main.getByRole('status').getByText(/waits for the operator’s approval/)).toBeVisible();
  const row = main.getByRole('row', { name: /trustpilot-export\.csv/ });
  await expect(row.getByText('Awaiting approval')).toBeVisible();
  await expect(row.getByText(owner)).toBeVisible();
  await expect(main.getByText(/^Awaiting approval: an operator/)).toBeVisible();
  await axe(page, 'listed, awaiting approval');

  // The operator approves; the worker imports it.
  const { imports } = (await operator('GET', `/admin/api/webshops/${shop.id}/imports`)) as {
    imports: { id: string }[];
  };
  await operator('POST', `/admin/api/webshops/${shop.id}/imports/${imports[0]!.id}/approve`);
  await page.reload();
  await expect(row.getByText('Done')).toBeVisible({ timeout: 30_000 });
  const progress = row.getByRole('progressbar', { name: 'Progress of trustpilot-export.csv' });
  await expect(progress).toHaveAttribute('aria-valuetext', '3 of 3 rows');
  await expect(row.getByText(/2 imported/)).toBeVisible();
  await axe(page, 'listed, done');

  // On the shop's page, with their original dates (day first: 3 April 2024).
  const shopPage = await context.newPage();
  await expect(async () => {
    await shopPage.goto(`${base()}/webshops/${shop.id}`);
    await expect(shopPage.getByText('Fiets kwam binnen twee dagen, top!')).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 30_000 });
  await expect(shopPage.getByText('Prima zadel en vriendelijke hulp.')).toBeVisible();
  await context.close();
});

test('a file of no known format: the owner maps its columns, and the next file with the same header is not asked again', async ({
  browser,
}) => {
  const shop = await createShop('Import Mapping');
  const owner = uniqueEmail('import-mapper');
  await addUser(shop.id, owner, 'owner');
  const context = await signedInContext(browser, owner);
  const page = await context.newPage();
  await openPage(page, 'import', shop.id);
  const main = page.getByRole('main');
  const file = (name: string) => ({
    name,
    mimeType: 'text/csv',
    buffer: Buffer.from('Sterren;Datum;Tekst;Klant\n5;2024-02-01 10:00;Heel fijne winkel;Ada\n4;2024-02-02;Prima;Bo\n'),
  });
  await main.getByLabel('Review export file (CSV or JSON)').setInputFiles(file('eigen.csv'));
  await main.getByRole('button', { name: 'Show preview' }).click();
  const step = main.getByRole('group', { name: 'Which column holds what?' });
  await expect(step).toBeVisible();
  // Guessed from the header's words; the shop corrects what is wrong.
  await expect(step.getByLabel('Rating (1 to 5 stars)')).toBeFocused();
  await expect(step.getByLabel('Rating (1 to 5 stars)')).toHaveValue('Sterren');
  await expect(step.getByLabel('Date')).toHaveValue('Datum');
  await step.getByLabel('Name of the writer').selectOption('Klant');
  await axe(page, 'column mapping');
  await main.getByRole('button', { name: 'Show preview' }).click();
  await expect(main.getByRole('heading', { name: 'Preview of eigen.csv' })).toBeFocused();
  await expect(main.getByText('Heel fijne winkel')).toBeVisible();
  await expect(main.getByText('Columns read by your mapping.')).toBeVisible();
  await main.getByRole('button', { name: 'Import 2 reviews' }).click();
  await expect(main.getByRole('row', { name: /eigen\.csv/ }).getByText('Awaiting approval')).toBeVisible();

  // The same columns again: straight to the preview, by the mapping remembered for this shop.
  await main.getByLabel('Review export file (CSV or JSON)').setInputFiles(file('weer.csv'));
  await main.getByRole('button', { name: 'Show preview' }).click();
  await expect(main.getByRole('heading', { name: 'Preview of weer.csv' })).toBeFocused();
  await expect(main.getByText('Columns read by your mapping.')).toBeVisible();
  await context.close();
});

test('an owner imports our JSON export: the file input takes .json, and the preview reads it', async ({ browser }) => {
  const shop = await createShop('Import JSON');
  const owner = uniqueEmail('import-json');
  await addUser(shop.id, owner, 'owner');
  const context = await signedInContext(browser, owner);
  const page = await context.newPage();
  await openPage(page, 'import', shop.id);
  const main = page.getByRole('main');
  const input = main.getByLabel('Review export file (CSV or JSON)');
  await expect(input).toHaveAttribute('accept', /(^|,)\.json(,|$)/);
  const record = {
    id: 41,
    status: 'published',
    created: '2024-02-01T10:00:00.000Z',
    original_date: null,
    name: 'Ada',
    rating: 5,
    comment: 'Brought along in JSON',
    replies: [{ text: 'Thanks, Ada', date: '2024-02-02T09:00:00.000Z' }],
    photo_urls: [],
  };
  await input.setInputFiles({
    name: 'reviews.json',
    mimeType: 'application/json',
    buffer: Buffer.from(`[\n${JSON.stringify(record)}\n]\n`),
  });
  await main.getByRole('button', { name: 'Show preview' }).click();
  await expect(main.getByRole('heading', { name: 'Preview of reviews.json' })).toBeFocused();
  await expect(main.getByText('Brought along in JSON')).toBeVisible();
  await axe(page, 'JSON preview');
  await main.getByRole('button', { name: 'Import 1 review' }).click();
  await expect(main.getByRole('row', { name: /reviews\.json/ }).getByText('Awaiting approval')).toBeVisible();
  await context.close();
});
