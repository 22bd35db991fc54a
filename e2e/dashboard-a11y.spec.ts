// The merchant dashboard against WCAG 2.2 AA (issue 10, Quality), with the checks of e2e/a11y.ts: axe-core finds no
// serious or critical violation on any page or open dialog, in the light and the dark theme (the system setting), on
// a 360×640 phone (where nothing may scroll sideways) and a 1280×800 desktop. At the desktop width, once per page as
// they do not depend on the theme: label in name, target size, and a Tab walk (everything reached, focus visible).
// One flow is done with the keyboard alone: sign in, open the reviews, reply, save. The screenshots of every page
// for the README are taken here (UPDATE_DOCS_SCREENSHOTS=1 copies them to docs/screenshots/).
import { test, expect, type BrowserContext, type Page } from '@playwright/test';
import { expectAxeClean, expectKeyboardReach, expectLabelInName, expectReflow, expectTargetSize } from './a11y.js';
import {
  PAGES,
  addReview,
  addUser,
  base,
  horizontalOverflow,
  mailsTo,
  openPage,
  screenshot,
  seedShop,
  signedInContext,
  signInLinkAfter,
  tabTo,
  unique,
  uniqueEmail,
  type PageName,
  type Shop,
} from './dashboard-helpers.js';

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 360, height: 640 };
const THEMES = ['light', 'dark'] as const;

test.use({ reducedMotion: 'reduce' });

let shop: Shop;
let owner: string;

test.beforeAll(async () => {
  // Few reviews, so that a Tab walk through the reviews page stays short.
  shop = await seedShop('Toegankelijke Tweewielers', 8);
  // Addresses that read well in the README's screenshots; a worker started after a failure gets its own (each
  // worker seeds its own shop, and a user with two shops would see the shop switcher).
  const worker = test.info().workerIndex;
  const suffix = worker === 0 ? '' : `.${worker}`;
  owner = `anna${suffix}@tweewielers.example`;
  await addUser(shop.id, owner, 'owner');
  await addUser(shop.id, `sam${suffix}@tweewielers.example`, 'support');
});

/** What each page shows once its data has arrived: the checks judge the page, not its loading state. */
async function loaded(page: Page, name: PageName | 'account'): Promise<void> {
  const main = page.getByRole('main');
  const ready: Record<PageName | 'account', () => Promise<void>> = {
    overview: () => expect(main.getByText(/\/\s*10/).first()).toBeVisible(),
    reviews: () => expect(main.getByRole('article').first()).toBeVisible(),
    invitations: () => expect(main.getByRole('table').getByRole('row').nth(1)).toBeVisible(),
    widget: async () => {
      await expect(main.getByText(String(shop.id)).first()).toBeAttached();
      // The preview's real sidebar (desktop) or top bar (phone) has arrived in its frame.
      await expect(
        page.frameLocator('iframe[title^="A sample shop page"]').locator('.side, .bar').first(),
      ).toBeVisible();
    },
    integration: () => expect(main.getByText(String(shop.id)).first()).toBeVisible(),
    team: () => expect(main.getByText(owner).first()).toBeVisible(),
    import: () => expect(main.getByText('No imports yet.')).toBeVisible(),
    account: () => expect(main.getByText('(this browser)')).toBeVisible(),
  };
  await ready[name]();
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
}

/**
 * What the page reports as going wrong: script errors and console errors, among them the browser's refusals under
 * the dashboard's strict CSP (an inline style or a script from elsewhere would show here, not as a failed check).
 */
function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(`script error: ${err.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  return errors;
}

async function checkPhone(page: Page, what: string): Promise<void> {
  expect(await horizontalOverflow(page), `${what}: scrolls sideways at 360 px`).toBeLessThanOrEqual(0);
  await expectReflow(page, 'page', what);
}

/**
 * Label in name (2.5.3) and target size (2.5.8) judge controls. The app's scrolling boxes (a wide table, a code
 * snippet) take the focus so that a keyboard can scroll them, and are named by their heading: their content is no
 * label, so they are left out of these two (the Tab walk still has to reach them).
 */
async function expectControlsNamed(page: Page, what: string): Promise<void> {
  const boxes = 'pre[tabindex="0"], [role="region"][tabindex="0"]';
  await page.locator(boxes).evaluateAll((els) => {
    for (const el of els) el.setAttribute('tabindex', '-1');
  });
  try {
    await expectLabelInName(page, 'page', what);
    await expectTargetSize(page, 'page', what);
  } finally {
    await page.locator(boxes.replaceAll('"0"', '"-1"')).evaluateAll((els) => {
      for (const el of els) el.setAttribute('tabindex', '0');
    });
  }
}

async function checkStructure(page: Page, what: string): Promise<void> {
  await expectControlsNamed(page, what);
  await expectKeyboardReach(page, 'page', what);
}

/** The dialogs and open forms a page has, checked like the page itself. */
/**
 * `modal`: a dialog opened with showModal(), which makes the rest of the page inert; e2e/a11y.ts's control probes look
 * at the whole document (Chromium names inert controls ""), so those states get axe-core and the phone checks only.
 */
type StateCheck = (what: string, options?: { modal?: boolean }) => Promise<void>;

async function openStates(page: Page, name: PageName | 'account', check: StateCheck): Promise<void> {
  if (name === 'reviews') {
    const review = page.getByRole('article').first();
    await review.getByRole('button', { name: 'Reply' }).click();
    await expect(review.getByLabel('Your reply')).toBeVisible();
    await check('reviews, reply form open');
    await review.getByRole('button', { name: 'Cancel' }).click();
    await review.getByRole('button', { name: 'Report' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toBeVisible();
    await check('reviews, report dialog', { modal: true });
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
  }
  if (name === 'account') {
    // The account menu: my sessions, sign out, sign out everywhere (and its confirmation).
    await page.getByRole('button', { name: 'Account' }).click();
    await expect(page.getByRole('button', { name: 'Sign out everywhere' })).toBeVisible();
    await check('account menu open');
    await page.getByRole('button', { name: 'Sign out everywhere' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toBeVisible();
    await check('sign out everywhere, confirmation', { modal: true });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
  }
  if (name === 'integration') {
    await page.getByRole('button', { name: 'Rotate API code' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toBeVisible();
    await check('integration, rotate confirmation', { modal: true });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
  }
}

for (const viewport of [DESKTOP, PHONE]) {
  const phone = viewport === PHONE;
  const size = `${viewport.width}×${viewport.height}`;

  for (const name of [...PAGES.map((p) => p.path), 'account'] as const) {
    test(`${name} in both themes at ${size}`, async ({ browser }) => {
      for (const theme of THEMES) {
        const context: BrowserContext = await signedInContext(browser, owner, {
          viewport,
          colorScheme: theme,
          reducedMotion: 'reduce',
        });
        const page = await context.newPage();
        const errors = watchErrors(page);
        // Label in name, target size and the Tab walk do not depend on the theme or the width: once, on the desktop.
        const structure = !phone && theme === 'light';
        const what = `${name} (${theme}, ${size})`;
        await openPage(page, name);
        await loaded(page, name);
        // Before the Tab walk, which leaves the page scrolled to its last control.
        await screenshot(page, `${name}-${theme}${phone ? '-phone' : ''}`, { tall: phone });
        await expectAxeClean(page, 'page', what);
        if (phone) await checkPhone(page, what);
        if (structure) await checkStructure(page, what);
        await openStates(page, name, async (state, { modal = false } = {}) => {
          await expectAxeClean(page, 'page', `${state} (${theme}, ${size})`);
          if (phone) await checkPhone(page, `${state} (${theme}, ${size})`);
          if (structure && !modal) await expectControlsNamed(page, state);
        });
        expect(errors, `${what}: errors in the console (a CSP refusal, a failed request, a script error)`).toEqual([]);
        await context.close();
      }
    });
  }

  test(`the sign-in screens in both themes at ${size}`, async ({ browser }) => {
    const email = uniqueEmail('a11y-signin');
    await addUser(shop.id, email, 'support');
    for (const theme of THEMES) {
      const context = await browser.newContext({ viewport, colorScheme: theme, reducedMotion: 'reduce' });
      const page = await context.newPage();
      const check = async (what: string) => {
        await expectAxeClean(page, 'page', `${what} (${theme}, ${size})`);
        if (phone) await checkPhone(page, `${what} (${theme}, ${size})`);
        if (!phone && theme === 'light') await checkStructure(page, what);
        await screenshot(page, `${what.replace(/\W+/g, '-')}-${theme}${phone ? '-phone' : ''}`);
      };
      await page.goto(`${base()}/dashboard/`);
      await expect(page.getByLabel('E-mail address')).toBeVisible();
      await check('sign-in');
      const seen = (await mailsTo(email)).length;
      await page.getByLabel('E-mail address').fill(email);
      await page.getByRole('button', { name: 'Send sign-in link' }).click();
      await expect(page.getByRole('status')).toContainText(email);
      await check('sign-in link sent');
      const link = await signInLinkAfter(email, seen);
      await page.goto(link);
      await check('sign-in link page');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect(page).toHaveURL(`${base()}/dashboard/`);
      // The same link again: used up.
      await page.goto(link);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('This sign-in link was used already');
      await check('sign-in link used');
      await context.close();
    }
  });
}

test('keyboard alone: sign in, open a review, reply with "notify the reviewer", save', async ({ browser }) => {
  const comment = `The lock was stiff at first, ${unique('k')}`;
  await addReview(shop.id, { name: 'Toetsenbord Tim', rating: 4, comment, created: new Date() });
  const email = uniqueEmail('a11y-keys');
  // A manager: support may not notify the reviewer, so would have no checkbox.
  await addUser(shop.id, email, 'manager');
  const context = await browser.newContext({ viewport: DESKTOP, reducedMotion: 'reduce' });
  const page = await context.newPage();

  // Sign in: the address and Enter; the link from the e-mail; Tab to "Sign in" and Enter.
  await page.goto(`${base()}/dashboard/`);
  const field = page.getByLabel('E-mail address');
  await tabTo(page, field);
  await page.keyboard.type(email);
  const seen = (await mailsTo(email)).length;
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status')).toContainText(email);
  await page.goto(await signInLinkAfter(email, seen));
  await tabTo(page, page.getByRole('button', { name: 'Sign in' }));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();

  // To the reviews through the navigation; the focus moves to the new page (not left on the link).
  await tabTo(page, page.getByRole('navigation').getByRole('link', { name: 'Reviews', exact: true }));
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Reviews' })).toBeVisible();
  await expect(page.getByRole('navigation').getByRole('link', { name: 'Reviews', exact: true })).not.toBeFocused();

  // The newest review first: its Reply button with Enter, the text typed, the checkbox with Space, Save with Enter.
  const review = page.getByRole('article').filter({ hasText: comment });
  await expect(review).toBeVisible();
  await tabTo(page, review.getByRole('button', { name: 'Reply' }));
  await page.keyboard.press('Enter');
  const text = review.getByLabel('Your reply');
  await expect(text).toBeVisible();
  if (!(await text.evaluate((el) => el === document.activeElement))) await tabTo(page, text);
  const reply = `Thanks Tim, a drop of oil helps. ${unique('kr')}`;
  await page.keyboard.type(reply);
  const notify = review.getByLabel('Notify the reviewer');
  await tabTo(page, notify);
  const before = await notify.isChecked();
  await page.keyboard.press('Space');
  await expect(notify).toBeChecked({ checked: !before });
  await tabTo(page, review.getByRole('button', { name: 'Save reply' }));
  await page.keyboard.press('Enter');
  await expect(review.getByText(reply)).toBeVisible();

  // Marked read with Space; reported with a ground chosen by the arrow keys, and the dialog closed with Enter.
  await tabTo(page, review.getByRole('button', { name: 'Mark as read' }));
  await page.keyboard.press('Space');
  await expect(review.getByRole('button', { name: 'Mark as unread' })).toBeVisible();
  await tabTo(page, review.getByRole('button', { name: 'Report' }));
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await tabTo(page, dialog.getByRole('radio').first());
  await page.keyboard.press('ArrowDown');
  await expect(dialog.getByRole('radio').nth(1)).toBeChecked();
  await tabTo(page, dialog.getByRole('button', { name: 'Send report' }));
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Report sent to the moderators.')).toBeAttached();
  await context.close();
});
