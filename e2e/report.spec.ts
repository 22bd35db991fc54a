// Reporting a review, as a shopper does it: from the widget on a merchant's page (another site), with the keyboard
// alone, to the report form in a new tab, and the report in the operator's queue. The report form has no serious or
// critical axe-core violation, in light and dark colour schemes, blank and with errors.
import { test, expect, type Page } from '@playwright/test';
import { expectAxeClean, expectKeyboardReach } from './a11y.js';

const base = () => process.env.WIDGET_BASE!;
const ADMIN_TOKEN = 'test-admin-token-0123456789abcdef';

function widgetSnippet(): string {
  const q = new URLSearchParams({
    id: process.env.WIDGET_SHOP!,
    layout: 'new_default',
    theme: 'light',
    language: 'eng',
    view: 'list',
    amount: '3',
  });
  q.set('width', 'manual');
  q.set('width_amount', '360px');
  q.set('height', '900');
  return `<iframe src="${`${base()}/webshops/widget_html?${q}`.replace(/&/g, '&amp;')}" width="360" height="900" title="Reviews" style="border:0"></iframe>`;
}

/** Where the keyboard focus is, looking into the widget's frame: the link's address, or the element's tag. */
async function focused(page: Page): Promise<string> {
  const frame = page.frames().find((f) => f.url().includes('/webshops/widget_html'));
  const inFrame = frame
    ? await frame.evaluate(() =>
        document.hasFocus() ? ((document.activeElement as HTMLAnchorElement | null)?.href ?? '') : '',
      )
    : '';
  return inFrame || (await page.evaluate(() => document.activeElement?.tagName ?? ''));
}

async function reports(): Promise<{ review_id: number; ground: string; text: string; email: string | null }[]> {
  const res = await fetch(`${base()}/admin/api/reports?status=all&limit=100`, {
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
  });
  return (await res.json()).reports;
}

test('a shopper reports a review from the widget with the keyboard alone', async ({ page, context }) => {
  await page.goto(`${process.env.MERCHANT_BASE}/?html=${encodeURIComponent(widgetSnippet())}`);
  const frame = await (await page.waitForSelector('#slot iframe')).contentFrame();
  await frame!.waitForLoadState('load');
  await frame!.waitForSelector('a[href*="/report"]');

  let at = '';
  for (let i = 0; i < 60 && !/\/reviews\/\d+\/report$/.test(at); i++) {
    await page.keyboard.press('Tab');
    at = await focused(page);
  }
  expect(at, 'Tab reaches a review’s report link').toMatch(/\/reviews\/\d+\/report$/);
  const reviewId = Number(/\/reviews\/(\d+)\/report$/.exec(at)![1]);

  const [form] = await Promise.all([context.waitForEvent('page'), page.keyboard.press('Enter')]);
  await form.waitForLoadState('load');
  expect(form.url()).toBe(`${base()}/reviews/${reviewId}/report`);
  await expect(form.getByRole('heading', { level: 1 })).toHaveText('Report a review');

  // The ground: Tab into the radio group, Space chooses the first, arrows move the choice.
  await form.keyboard.press('Tab');
  await expect(form.locator('input[name=ground]:focus')).toHaveCount(1);
  await form.keyboard.press('Space');
  await form.keyboard.press('ArrowDown');
  await form.keyboard.press('ArrowDown');
  await expect(form.locator('input[name=ground]:checked')).toHaveValue('personal_data');
  await form.keyboard.press('Tab');
  await form.keyboard.type('It gives the phone number of a staff member.');
  await form.keyboard.press('Tab');
  await form.keyboard.type('shopper@example.com');
  await form.keyboard.press('Tab');
  await expect(form.locator('button:focus')).toHaveText('Send report');
  await form.keyboard.press('Enter');
  await expect(form.getByRole('heading', { level: 1 })).toHaveText('Thank you for your report');

  expect(await reports()).toContainEqual(
    expect.objectContaining({
      review_id: reviewId,
      ground: 'personal_data',
      text: 'It gives the phone number of a staff member.',
      email: 'shopper@example.com',
    }),
  );
});

for (const colorScheme of ['light', 'dark'] as const) {
  test(`the report form passes axe-core and is reached by keyboard (${colorScheme})`, async ({ page }) => {
    await page.emulateMedia({ colorScheme });
    const widget = await (
      await fetch(
        `${base()}/webshops/widget_html?id=${process.env.WIDGET_SHOP}&layout=new_default&view=list&amount=1&language=eng`,
      )
    ).text();
    const reviewId = /\/reviews\/(\d+)\/report/.exec(widget)![1];
    await page.goto(`${base()}/reviews/${reviewId}/report`);
    await expectAxeClean(page, 'page', `report form (${colorScheme})`);
    await expectKeyboardReach(page, 'page', `report form (${colorScheme})`);
    // With errors: the summary, the messages and the invalid fields.
    await page.locator('#ground-spam').check();
    await page.locator('#email').fill('not an address');
    await page.locator('button[type=submit]').click({ noWaitAfter: false });
    await expect(page.locator('.errors')).toBeVisible();
    await expectAxeClean(page, 'page', `report form with errors (${colorScheme})`);
  });
}
