// The merchant dashboard's flows end to end (issue 10, Quality), in Debian's Chromium against the real service, its
// scheduler and a real SMTP server (e2e/server.ts): a user signs in from the e-mailed link; replies to a review and
// finds the reply in the public widget; a support user may reply but not e-mail the reviewer, and finds no way to
// rotate the API code (the API refuses both); a CSV upload with one bad row; a webhook created in the dashboard whose delivery shows in its log; "sign out
// everywhere" ends the session of another browser too. Shops, users and reviews are seeded through the operator API.
import { test, expect, type Page } from '@playwright/test';
import {
  addReview,
  addUser,
  base,
  createShop,
  dashboardApi,
  invitationHistory,
  mailsTo,
  openPage,
  screenshot,
  seedShop,
  signedInContext,
  signInLinkAfter,
  signInQuickly,
  unique,
  uniqueEmail,
  ownerOnIntegration,
  receiverForBlock,
} from './dashboard-helpers.js';

test.use({ reducedMotion: 'reduce' });

/** The sign-in screen a visitor without a session gets. */
const emailField = (page: Page) => page.getByLabel('E-mail address');

test('a user signs in from the e-mailed link, which works once', async ({ page }) => {
  const shop = await seedShop('Fietsen Smit');
  const email = uniqueEmail('owner');
  await addUser(shop.id, email, 'owner');
  const seen = (await mailsTo(email)).length;

  await page.goto(`${base()}/dashboard/`);
  await expect(emailField(page)).toBeVisible();
  await screenshot(page, 'sign-in');
  await emailField(page).fill(email);
  await page.getByRole('button', { name: 'Send sign-in link' }).click();
  await expect(page.getByRole('status')).toContainText(email);

  const link = await signInLinkAfter(email, seen);
  const mail = (await mailsTo(email)).at(-1)!;
  expect(mail.body, 'the e-mail names the shop or the service and how long the link works').toMatch(/15 minutes/);

  // Opening the link does not sign in (a mail scanner may open it): the page asks for a press of the button.
  await page.goto(link);
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await screenshot(page, 'sign-in-link');
  const again = await page.context().request.get(`${base()}/dashboard/api/me`);
  expect(again.status(), 'no session from opening the link').toBe(401);

  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(`${base()}/dashboard/`);
  await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
  await expect(page.getByText(shop.name).first()).toBeVisible();

  // The same link a second time, in another browser: used up, with a way to ask for a new one.
  const other = await page.context().browser()!.newContext();
  const second = await other.newPage();
  await second.goto(link);
  await second.getByRole('button', { name: 'Sign in' }).click();
  await expect(second.getByRole('heading', { level: 1 })).toHaveText('This sign-in link was used already');
  await expect(second.getByRole('button', { name: 'E-mail me a sign-in link' })).toBeVisible();
  expect((await other.request.get(`${base()}/dashboard/api/me`)).status()).toBe(401);
  await other.close();
});

test('a reply written in the dashboard shows in the public widget', async ({ browser }) => {
  const shop = await createShop('Reply Rijwielen');
  await addReview(shop.id, {
    name: 'Anna',
    rating: 4,
    comment: 'Older review, no reply wanted.',
    created: new Date(Date.now() - 5 * 86_400_000),
  });
  const comment = `Saddle arrived scratched, ${unique('c')}`;
  const writer = uniqueEmail('jane');
  await addReview(shop.id, {
    name: 'Jane Doe',
    email: writer,
    rating: 3,
    comment,
    created: new Date(Date.now() - 86_400_000),
  });
  const email = uniqueEmail('manager');
  await addUser(shop.id, email, 'manager');
  const context = await signedInContext(browser, email);
  const page = await context.newPage();

  await openPage(page, 'reviews');
  const review = page.getByRole('article').filter({ hasText: comment });
  await expect(review).toBeVisible();
  await review.getByRole('button', { name: 'Reply' }).click();
  const reply = `Sorry about the saddle: a new one is on its way. ${unique('r')}`;
  await review.getByLabel('Your reply').fill(reply);
  await review.getByLabel('Notify the reviewer').check();
  await review.getByRole('button', { name: 'Save reply' }).click();
  await expect(review.getByText(reply)).toBeVisible();
  await expect(review.getByRole('button', { name: 'Edit reply' })).toBeVisible();
  // "Notify the reviewer": the writer gets the reply by e-mail.
  await expect
    .poll(async () => (await mailsTo(writer)).length, { message: 'the reply e-mailed to the writer', timeout: 20_000 })
    .toBe(1);
  expect((await mailsTo(writer))[0]!.body).toContain(reply);

  const widget = `${base()}/webshops/widget_html?${new URLSearchParams({ id: String(shop.id), layout: 'new_default', language: 'eng' })}`;
  await page.goto(widget);
  await expect(
    page
      .locator('.rp')
      .filter({ hasText: reply.slice(0, 40) })
      .first(),
  ).toBeAttached();
  await expect(page.getByText(comment)).toBeAttached();
  await context.close();
});

test('a support user replies but cannot e-mail the reviewer: no checkbox in the app, 403 from the API', async ({
  browser,
}) => {
  const shop = await createShop('Stille Spaken');
  const comment = `Bell rings too softly, ${unique('s')}`;
  const reviewId = await addReview(shop.id, { name: 'Piet', rating: 3, comment, created: new Date() });
  const support = uniqueEmail('support');
  await addUser(shop.id, support, 'support');
  const context = await signedInContext(browser, support);
  const page = await context.newPage();

  await openPage(page, 'reviews');
  const review = page.getByRole('article').filter({ hasText: comment });
  await review.getByRole('button', { name: 'Reply' }).click();
  await expect(review.getByLabel('Your reply')).toBeVisible();
  await expect(review.getByLabel('Notify the reviewer')).toHaveCount(0);
  const reply = `A louder bell is on its way. ${unique('b')}`;
  await review.getByLabel('Your reply').fill(reply);
  await review.getByRole('button', { name: 'Save reply' }).click();
  await expect(review.getByText(reply)).toBeVisible();

  const refused = await dashboardApi(context.request, 'POST', `/shops/${shop.id}/reviews/${reviewId}/reply`, {
    text: 'Again',
    notify: true,
  });
  expect(refused.status).toBe(403);
  expect(refused.json).toMatchObject({ error: { code: 'forbidden' } });
  await context.close();
});

test('a support user cannot rotate the API code: no control in the app, 403 from the API', async ({ browser }) => {
  const shop = await createShop('Rollen Rijwielen');
  const owner = uniqueEmail('owner');
  const support = uniqueEmail('support');
  await addUser(shop.id, owner, 'owner');
  await addUser(shop.id, support, 'support');

  // The owner has the control (so its absence below means something).
  const ownerContext = await signedInContext(browser, owner);
  const ownerPage = await ownerContext.newPage();
  await openPage(ownerPage, 'integration');
  await expect(ownerPage.getByRole('button', { name: 'Rotate API code' })).toBeVisible();
  await ownerContext.close();

  const context = await signedInContext(browser, support);
  const page = await context.newPage();
  await page.goto(`${base()}/dashboard/overview`);
  await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
  await expect(page.getByRole('navigation').getByRole('link', { name: 'Integration' })).toHaveCount(0);
  await page.goto(`${base()}/dashboard/integration`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByRole('button', { name: /rotate/i })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /show.*code|reveal/i })).toHaveCount(0);

  // The same browser's cookie and CSRF token: the server says no, and the code keeps working.
  const rotate = await dashboardApi(context.request, 'POST', `/shops/${shop.id}/integration/code/rotate`);
  expect(rotate.status).toBe(403);
  expect(rotate.json).toMatchObject({ error: { code: 'forbidden' } });
  const reveal = await dashboardApi(context.request, 'POST', `/shops/${shop.id}/integration/code/reveal`);
  expect(reveal.status).toBe(403);
  const summary = await fetch(
    `${base()}/api/1.0/ratings_summary.json?id=${shop.id}&code=${encodeURIComponent(shop.code)}`,
  );
  expect(((await summary.json()) as { status: string }).status).toBe('success');
  await context.close();
});

test('a CSV upload with one bad row: the row is named, the others are queued, a re-upload queues nothing twice', async ({
  browser,
}) => {
  const shop = await createShop('CSV Cycles');
  const email = uniqueEmail('manager');
  await addUser(shop.id, email, 'manager');
  const good = [uniqueEmail('csv-a'), uniqueEmail('csv-b'), uniqueEmail('csv-c')];
  const stamp = unique('CSV');
  // Semicolons and a byte-order mark, as a spreadsheet saves it; the third line has no usable address.
  const csv =
    '\uFEFFemail;order;name;language;delay\r\n' +
    `${good[0]};${stamp}-1;Els;nl;3\r\n` +
    `not-an-address;${stamp}-2;Bad;en;3\r\n` +
    `${good[1]};${stamp}-3;Joost;en;3\r\n` +
    `${good[2]};${stamp}-4;;;5\r\n`;
  const context = await signedInContext(browser, email);
  const page = await context.newPage();
  await openPage(page, 'invitations');

  const upload = async () => {
    await page
      .getByLabel('CSV file', { exact: true })
      .setInputFiles({ name: 'invitations.csv', mimeType: 'text/csv', buffer: Buffer.from(csv, 'utf8') });
    await page.getByRole('button', { name: 'Upload' }).click();
  };
  await upload();
  const result = page.getByRole('status').filter({ hasText: /queued/i });
  await expect(result).toContainText('3 queued');
  // The row as a spreadsheet numbers it (the header is row 1).
  await expect(page.getByText(/row 3\b/i)).toBeVisible();
  await expect(page.getByText(/row 3\b/i)).toContainText(/e-?mail/i);
  await screenshot(page, 'invitations-csv');

  for (const address of good) {
    await expect(page.getByRole('table').getByText(address)).toBeVisible();
    expect((await invitationHistory(shop.id, address)).status).toBe(200);
  }
  await expect(page.getByText('not-an-address', { exact: true })).toHaveCount(0);

  await upload();
  await expect(result).toContainText('0 queued');
  await expect(page.getByRole('status').filter({ hasText: /queued/i })).toContainText(/3 .*(already|duplicate)/i);
  const listed = await dashboardApi(
    context.request,
    'GET',
    `/shops/${shop.id}/invitations?q=${encodeURIComponent(stamp)}`,
  );
  expect(listed.status).toBe(200);
  expect((listed.json as { total: number }).total).toBe(3);
  await context.close();
});

test.describe('webhooks', () => {
  const receiver = receiverForBlock();

  test('a webhook created in the dashboard; its delivery shows in the log', async ({ browser }) => {
    const { shop, context, page } = await ownerOnIntegration(browser, 'Haak & Co', 'owner');
    const path = `/hook-${unique('h')}`;
    const url = `${receiver().url}${path}`;
    await page.getByRole('button', { name: 'Add webhook' }).click();
    await page.getByLabel('URL', { exact: true }).fill(url);
    await page.getByRole('combobox', { name: 'Event' }).selectOption('reviews.created');
    await page.getByRole('button', { name: 'Save webhook' }).click();
    const row = page.getByRole('row').filter({ hasText: url });
    await expect(row).toBeVisible();

    // The receiver checks the signature as a shop would, with the subscription's secret.
    const listed = await dashboardApi(context.request, 'GET', `/shops/${shop.id}/webhooks`);
    expect(listed.status).toBe(200);
    const items = ((listed.json as { items?: unknown[] }).items ?? listed.json) as { url: string; secret: string }[];
    const secret = items.find((w) => w.url === url)?.secret;
    expect(secret, 'the subscription and its secret').toBeTruthy();
    receiver().secrets.set(path, secret!);

    await addReview(shop.id, { name: 'Hook Tester', rating: 5, comment: 'Fine shop.' });
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
    expect(delivered.topic).toBe('reviews.created');

    // The log, as the owner opens it.
    await row.getByRole('button', { name: 'Deliveries' }).click();
    const log = page.getByRole('table', { name: `Deliveries to ${url}` });
    const entry = log.getByRole('row').filter({ hasText: delivered.eventId! });
    await expect(async () => {
      await page.getByRole('button', { name: 'Refresh' }).click();
      await expect(entry).toHaveCount(1, { timeout: 1_000 });
    }).toPass({ timeout: 15_000 });
    await expect(entry).toContainText('reviews.created');
    await expect(entry.getByRole('cell', { name: '200', exact: true })).toBeVisible();
    await log.evaluate((el) => el.closest('section')?.scrollIntoView({ block: 'start' }));
    await screenshot(page, 'integration-webhook-log');
    await context.close();
  });

  test('more webhooks than a page: the oldest on the next page; deleting the last one there goes back', async ({
    browser,
  }) => {
    const { shop, context, page } = await ownerOnIntegration(browser, 'Veel Haken', 'owner');
    const url = (n: number) => `${receiver().url}/many/${shop.id}/n${n}x`;
    for (let n = 1; n <= 21; n++) {
      const created = await dashboardApi(context.request, 'POST', `/shops/${shop.id}/webhooks`, {
        url: url(n),
        topic: 'reviews.updated',
      });
      expect(created.status).toBe(201);
    }
    await page.reload();
    const rows = page.getByRole('table', { name: 'Webhooks' }).getByRole('row');
    const pager = page.getByRole('navigation', { name: 'Pages of webhooks' });
    await expect(rows.filter({ hasText: url(21) })).toBeVisible();
    await expect(rows).toHaveCount(21); // the header and the 20 newest
    await expect(rows.filter({ hasText: url(1) })).toHaveCount(0);

    await pager.getByRole('button', { name: 'Next' }).click();
    const oldest = rows.filter({ hasText: url(1) });
    await expect(oldest).toBeVisible();
    await expect(rows).toHaveCount(2);

    await oldest.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await expect(rows.filter({ hasText: url(21) })).toBeVisible();
    await expect(rows).toHaveCount(21);
    await expect(pager).toHaveCount(0);
    await context.close();
  });
});

test('the widget page previews the real sidebar on a sample page, following the form before it is saved', async ({
  browser,
}) => {
  const shop = await seedShop('Voorbeeld Fietsen', 3);
  const manager = uniqueEmail('manager');
  await addUser(shop.id, manager, 'manager');
  const context = await signedInContext(browser, manager, { viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await openPage(page, 'widget', shop.id);
  const frame = page.frameLocator('iframe[title^="A sample shop page"]');
  // The shop's own sidebar.js (its shadow root is open: CSS locators pierce it), with the shop's score and count.
  const side = frame.locator('.side');
  await expect(side).toContainText('/10');
  await expect(side).toContainText('3');
  const frameBox = async () => (await page.locator('iframe[title^="A sample shop page"]').boundingBox())!;
  const sideBox = async () => (await side.boundingBox())!;
  // Left by default; right as soon as the form says so, without saving.
  expect((await sideBox()).x - (await frameBox()).x).toBeLessThan(5);
  await page.getByLabel('Side', { exact: true }).selectOption('right');
  await expect
    .poll(async () => {
      const [f, b] = [await frameBox(), await sideBox()];
      return Math.round(f.x + f.width - (b.x + b.width));
    })
    .toBeLessThan(5);
  await expect(page.locator('iframe[title^="A sample shop page"]')).toHaveAttribute('src', /sidebar_position=right/);
  // Nothing was saved by previewing.
  const saved = await dashboardApi(context.request, 'GET', `/shops/${shop.id}/widget`);
  expect((saved.json as { settings: { position: string } }).settings.position).toBe('left');
  // The phone shows the mobile mode (the top bar by default) instead of the sidebar.
  await page.getByRole('radio', { name: 'Phone' }).check();
  await expect(frame.locator('.bar')).toBeVisible();
  await expect(frame.locator('.side')).toBeHidden();
  await context.close();
});

test('"sign out everywhere" ends the session in the other browser too', async ({ browser }) => {
  const shop = await createShop('Overal Uit');
  const email = uniqueEmail('owner');
  await addUser(shop.id, email, 'owner');
  const laptop = await browser.newContext();
  const phone = await browser.newContext({ viewport: { width: 360, height: 640 } });
  await signInQuickly(laptop, email);
  await signInQuickly(phone, email);
  const phonePage = await phone.newPage();
  await phonePage.goto(`${base()}/dashboard/overview`);
  await expect(phonePage.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();

  const page = await laptop.newPage();
  await page.goto(`${base()}/dashboard/overview`);
  const sessions = await dashboardApi(laptop.request, 'GET', '/sessions');
  expect((sessions.json as { sessions: unknown[] }).sessions).toHaveLength(2);
  await page.getByRole('button', { name: 'Account' }).click();
  await page.getByRole('button', { name: 'Sign out everywhere' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Sign out everywhere' }).click();
  await expect(page.getByLabel('E-mail address')).toBeVisible();
  expect((await laptop.request.get(`${base()}/dashboard/api/me`)).status()).toBe(401);

  // The other browser's next step finds its session gone.
  expect((await phone.request.get(`${base()}/dashboard/api/me`)).status()).toBe(401);
  await phonePage.reload();
  await expect(phonePage.getByLabel('E-mail address')).toBeVisible();
  await laptop.close();
  await phone.close();
});

test('Dutch from the browser, switched to English and remembered', async ({ browser }) => {
  const shop = await createShop('Taal & Co');
  const email = uniqueEmail('owner');
  await addUser(shop.id, email, 'owner');
  const context = await signedInContext(browser, email, { locale: 'nl-NL' });
  const page = await context.newPage();
  await page.goto(`${base()}/dashboard/`);
  await expect(page.locator('html')).toHaveAttribute('lang', 'nl');
  await expect(page.getByRole('heading', { level: 1, name: 'Overzicht' })).toBeVisible();
  await expect(page.getByRole('navigation').getByRole('link', { name: 'Beoordelingen', exact: true })).toBeVisible();

  await page.getByRole('combobox', { name: 'Taal' }).selectOption('en');
  await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
  await context.close();
});
