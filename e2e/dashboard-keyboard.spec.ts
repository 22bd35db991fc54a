// The dashboard's flows done with the keyboard alone (issue 10, Quality: "every flow done with the keyboard alone in
// a test"): the mouse versions are in e2e/dashboard.spec.ts, the keyboard-only reply and report in
// e2e/dashboard-a11y.spec.ts. Every control here is reached with Tab or Shift+Tab and worked with Enter, Space, the
// arrow keys or Escape; text is typed into the control that has the focus; the CSV file comes through the browser's
// file chooser, opened from the keyboard. What each flow changed is checked through the APIs, as in the mouse tests.
import { test, expect, type FileChooser, type Page } from '@playwright/test';
import {
  addReview,
  addUser,
  base,
  createShop,
  dashboardApi,
  invitationHistory,
  openPage,
  signedInContext,
  signInQuickly,
  tabTo,
  unique,
  uniqueEmail,
  ownerOnIntegration,
  receiverForBlock,
} from './dashboard-helpers.js';

test.use({ reducedMotion: 'reduce', viewport: { width: 1280, height: 800 } });

/**
 * The file choosers the page opens, in order. Listening from the start rather than around each key press: the browser
 * is told to hand the choosers to the test once a listener exists, and a press that comes first opens a real one.
 */
function fileChoosers(page: Page): () => Promise<FileChooser> {
  const opened: FileChooser[] = [];
  page.on('filechooser', (chooser) => opened.push(chooser));
  return async () => {
    await expect.poll(() => opened.length, { message: 'a file chooser opened' }).toBeGreaterThan(0);
    return opened.shift()!;
  };
}

test('keyboard alone: a CSV upload through the file chooser, opened with Space', async ({ browser }) => {
  const shop = await createShop('Toets CSV');
  const email = uniqueEmail('kb-csv');
  await addUser(shop.id, email, 'manager');
  const good = [uniqueEmail('kb-csv-a'), uniqueEmail('kb-csv-b')];
  const stamp = unique('KBCSV');
  const csv = `email,order,name,language,delay\r\n${good[0]},${stamp}-1,Els,nl,3\r\nnot-an-address,${stamp}-2,Bad,en,3\r\n${good[1]},${stamp}-3,Joost,en,3\r\n`;
  const context = await signedInContext(browser, email);
  const page = await context.newPage();
  const nextChooser = fileChoosers(page);
  await openPage(page, 'invitations');

  const input = page.getByLabel('CSV file', { exact: true });
  await tabTo(page, input);
  await page.keyboard.press('Space');
  await (await nextChooser()).setFiles({
    name: 'invitations.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(csv, 'utf8'),
  });
  await expect(input).toBeFocused();
  await tabTo(page, page.getByRole('button', { name: 'Upload' }));
  await page.keyboard.press('Enter');

  await expect(page.getByRole('status').filter({ hasText: /queued/i })).toContainText('2 queued');
  await expect(page.getByText(/row 3\b/i)).toContainText(/e-?mail/i);
  for (const address of good) {
    await expect(page.getByRole('table').getByText(address)).toBeVisible();
    expect((await invitationHistory(shop.id, address)).status).toBe(200);
  }

  // Enter opens the chooser too; a second upload of the same file queues nothing twice.
  await tabTo(page, input, { back: true });
  await page.keyboard.press('Enter');
  await (await nextChooser()).setFiles({
    name: 'invitations.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(csv, 'utf8'),
  });
  await tabTo(page, page.getByRole('button', { name: 'Upload' }));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status').filter({ hasText: /queued/i })).toContainText('0 queued');
  await context.close();
});

test.describe('webhooks', () => {
  const receiver = receiverForBlock();

  test('keyboard alone: a webhook created, its delivery log opened and refreshed', async ({ browser }) => {
    const { shop, context, page } = await ownerOnIntegration(browser, 'Toets Haak', 'kb-hook');
    const path = `/hook-${unique('kh')}`;
    const url = `${receiver().url}${path}`;
    await tabTo(page, page.getByRole('button', { name: 'Add webhook' }));
    await page.keyboard.press('Enter');
    // The form takes the focus on its first field.
    const field = page.getByLabel('URL', { exact: true });
    await expect(field).toBeFocused();
    await page.keyboard.type(url);
    const topic = page.getByRole('combobox', { name: 'Event' });
    await tabTo(page, topic);
    await page.keyboard.press('ArrowDown');
    await expect(topic).toHaveValue('reviews.updated');
    await page.keyboard.press('ArrowUp');
    await expect(topic).toHaveValue('reviews.created');
    await tabTo(page, page.getByRole('button', { name: 'Save webhook' }));
    await page.keyboard.press('Enter');
    const row = page.getByRole('row').filter({ hasText: url });
    await expect(row).toBeVisible();
    // The form closes; the focus goes to the button in its place, not to the top of the page.
    await expect(page.getByRole('button', { name: 'Add webhook' })).toBeFocused();

    const listed = await dashboardApi(context.request, 'GET', `/shops/${shop.id}/webhooks`);
    const items = ((listed.json as { items?: unknown[] }).items ?? listed.json) as {
      url: string;
      secret: string;
      topic: string;
    }[];
    const saved = items.find((w) => w.url === url);
    expect(saved?.topic).toBe('reviews.created');
    receiver().secrets.set(path, saved!.secret);
    await addReview(shop.id, { name: 'Toets Tester', rating: 5, comment: 'Fine shop.' });
    await receiver().waitFor(
      () =>
        receiver()
          .at(path)
          .some((r) => r.verified),
      20_000,
    );
    const delivered = receiver()
      .at(path)
      .find((r) => r.verified)!;

    // The row is above where the form was: back with Shift+Tab.
    await tabTo(page, row.getByRole('button', { name: 'Deliveries' }), { back: true });
    await page.keyboard.press('Enter');
    const log = page.getByRole('table', { name: `Deliveries to ${url}` });
    // The log's heading takes the focus, so the next Tab is in the log.
    await expect(page.getByRole('heading', { name: `Deliveries to ${url}` })).toBeFocused();
    const refresh = page.getByRole('button', { name: 'Refresh' });
    await tabTo(page, refresh);
    const entry = log.getByRole('row').filter({ hasText: delivered.eventId! });
    await expect(async () => {
      await expect(refresh).toBeFocused({ timeout: 500 });
      await page.keyboard.press('Enter');
      await expect(entry).toHaveCount(1, { timeout: 1_000 });
    }).toPass({ timeout: 15_000 });
    await expect(entry.getByRole('cell', { name: '200', exact: true })).toBeVisible();
    await context.close();
  });
});

test('keyboard alone: rotating the API code asks first; Escape cancels, the confirmation rotates', async ({
  browser,
}) => {
  const shop = await createShop('Toets Sleutel');
  const email = uniqueEmail('kb-rotate');
  await addUser(shop.id, email, 'owner');
  const context = await signedInContext(browser, email);
  const page = await context.newPage();
  await openPage(page, 'integration');
  const summary = async (code: string) =>
    (
      (await (
        await fetch(`${base()}/api/1.0/ratings_summary.json?id=${shop.id}&code=${encodeURIComponent(code)}`)
      ).json()) as { status: string }
    ).status;

  const rotate = page.getByRole('button', { name: 'Rotate API code' });
  await tabTo(page, rotate);
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Rotate the API code?' });
  await expect(dialog).toBeVisible();
  // It opens on the harmless choice.
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(rotate, 'the focus returns to the button').toBeFocused();
  expect(await summary(shop.code), 'Escape rotated nothing').toBe('success');

  await page.keyboard.press('Enter');
  await expect(dialog).toBeVisible();
  await tabTo(page, dialog.getByRole('button', { name: 'Rotate', exact: true }), { back: true });
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  const shown = page.locator('.api-code code.secret');
  await expect(shown).toBeVisible();
  const code = (await shown.textContent())!.trim();
  expect(code).not.toBe(shop.code);
  expect(await summary(code)).toBe('success');
  expect(await summary(shop.code), 'the old code stops working').not.toBe('success');
  await context.close();
});

test("keyboard alone: a team member's role changed with the arrow keys, a user removed", async ({ browser }) => {
  const shop = await createShop('Toets Team');
  const owner = uniqueEmail('kb-owner');
  const member = uniqueEmail('kb-member');
  const leaving = uniqueEmail('kb-leaving');
  await addUser(shop.id, owner, 'owner');
  const { id: memberId } = await addUser(shop.id, member, 'support');
  await addUser(shop.id, leaving, 'support');
  const context = await signedInContext(browser, owner);
  const page = await context.newPage();
  await openPage(page, 'team');

  // Each row: this shop's addition (by whom) and whether they signed in since, nothing of their other shops.
  const team = page.getByRole('table', { name: 'Users' });
  await expect(team.getByRole('row').filter({ hasText: owner })).toContainText('Active');
  const memberRow = team.getByRole('row').filter({ hasText: member });
  await expect(memberRow).toContainText('Service operator');
  await expect(memberRow).toContainText('Not signed in yet');

  // support → manager: the roles are listed owner, manager, support.
  const role = page.getByRole('combobox', { name: `Role of ${member}` });
  await tabTo(page, role);
  await expect(role).toHaveValue('support');
  await page.keyboard.press('ArrowUp');
  await expect(role).toHaveValue('manager');
  await tabTo(page, page.getByRole('button', { name: 'Save role' }));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: 'Save role' })).toHaveCount(0);
  const users = await dashboardApi(context.request, 'GET', `/shops/${shop.id}/users`);
  const listed = (users.json as { users: { id: number | string; role: string; email: string }[] }).users;
  expect(listed.find((u) => String(u.id) === String(memberId))?.role).toBe('manager');
  for (const u of listed)
    expect(Object.keys(u).sort()).toEqual([
      'added_at',
      'added_by',
      'email',
      'id',
      'role',
      'shop_id',
      'signed_in_since_added',
    ]);

  // Remove: the dialog opens on Cancel; Shift+Tab to the confirmation.
  const row = page.getByRole('row').filter({ hasText: leaving });
  await tabTo(page, row.getByRole('button', { name: 'Remove' }));
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Remove the user?' });
  await expect(dialog).toContainText(leaving);
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await tabTo(page, dialog.getByRole('button', { name: 'Remove', exact: true }), { back: true });
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expect(row).toHaveCount(0);
  const after = await dashboardApi(context.request, 'GET', `/shops/${shop.id}/users`);
  expect((after.json as { users: { email: string }[] }).users.map((u) => u.email)).not.toContain(leaving);
  // The focus does not fall to the top of the page with the removed row: it lands on the list's heading.
  await expect(page.getByRole('heading', { level: 2, name: 'Users' })).toBeFocused();
  await context.close();
});

test('keyboard alone: sign out everywhere from the account menu (Escape closes the menu)', async ({ browser }) => {
  const shop = await createShop('Toets Uit');
  const email = uniqueEmail('kb-out');
  await addUser(shop.id, email, 'owner');
  const laptop = await browser.newContext();
  const phone = await browser.newContext();
  await signInQuickly(laptop, email);
  await signInQuickly(phone, email);
  const page = await laptop.newPage();
  await openPage(page, 'overview');

  const account = page.getByRole('button', { name: 'Account' });
  const everywhere = page.locator('#account-menu').getByRole('button', { name: 'Sign out everywhere' });
  await tabTo(page, account);
  await page.keyboard.press('Enter');
  await expect(account).toHaveAttribute('aria-expanded', 'true');
  await expect(everywhere).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(everywhere).toBeHidden();
  await expect(account).toBeFocused();

  await page.keyboard.press('Space');
  await tabTo(page, everywhere);
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  // Escape closes the confirmation, not the menu behind it; then once more, for real.
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(everywhere).toBeFocused();
  expect((await laptop.request.get(`${base()}/dashboard/api/me`)).status()).toBe(200);
  await page.keyboard.press('Enter');
  await tabTo(page, dialog.getByRole('button', { name: 'Sign out everywhere' }), { back: true });
  await page.keyboard.press('Enter');
  await expect(page.getByLabel('E-mail address')).toBeVisible();
  expect((await laptop.request.get(`${base()}/dashboard/api/me`)).status()).toBe(401);
  expect((await phone.request.get(`${base()}/dashboard/api/me`)).status()).toBe(401);
  await laptop.close();
  await phone.close();
});

test('keyboard alone: the language switched from Dutch to English with the arrow keys, and remembered', async ({
  browser,
}) => {
  const shop = await createShop('Toets Taal');
  const email = uniqueEmail('kb-lang');
  await addUser(shop.id, email, 'owner');
  const context = await signedInContext(browser, email, { locale: 'nl-NL' });
  const page = await context.newPage();
  await page.goto(`${base()}/dashboard/`);
  await expect(page.getByRole('heading', { level: 1, name: 'Overzicht' })).toBeVisible();

  const language = page.getByRole('combobox', { name: 'Taal' });
  await tabTo(page, language);
  await page.keyboard.press('ArrowUp');
  await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  // The control keeps the focus under its new name, and the arrow takes it back.
  const switched = page.getByRole('combobox', { name: 'Language' });
  await expect(switched).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('heading', { level: 1, name: 'Overzicht' })).toBeVisible();
  await page.keyboard.press('ArrowUp');
  await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
  await context.close();
});
