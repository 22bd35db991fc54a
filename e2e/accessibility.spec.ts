// WCAG 2.2 AA on every shopper-facing state, on desktops and on phones (docs/accessibility.md says what is tested
// and how). Every state gets axe-core (no serious or critical violation) at 1280×800 and 390×800 in both themes and a
// keyboard walk (focus visible with enough contrast, not hidden, everything reached); once per state, as they do not
// depend on the theme: label in name, target size and reading order; on phones reflow at 320 px; and text spacing.
// Label in name is also checked in all seven languages. One page load serves several states, to keep the run short.
import { test, expect, type Page } from '@playwright/test';
import { MongoClient, type Db } from 'mongodb';
import {
  expectAxeClean,
  expectKeyboardReach,
  expectLabelInName,
  expectNoCutText,
  expectReadingOrder,
  expectReflow,
  expectTargetSize,
  expectTextSpacing,
  labelInNameProblem,
  tabThrough,
  targetSizeProblems,
  type Control,
  type Scope,
} from './a11y.js';
import { hostUrl, open, uniqueOrder } from './embed-helpers.js';
import { InvitationStore } from '../server/invitations/store.js';
import { ReviewStore } from '../server/reviews/store.js';
import { WebshopStore, type Webshop } from '../server/webshops/store.js';
import { LAYOUTS, LAYOUT_INFO, recommendedHeight } from '../widget/layouts.js';
import { ISO3, LANGUAGES, type Language } from '../server/languages.js';
import { Caches } from '../server/cache.js';

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 800 };
const NARROWEST = { width: 320, height: 640 };
const THEMES = ['light', 'dark'] as const;
const dialog = (page: Page) => page.locator('dialog[open]');

// Nothing is measured mid-animation (the pop-ups fade in otherwise); the slider's own reduced-motion behaviour is
// tested in widget.spec.ts.
test.use({ reducedMotion: 'reduce' });

interface Checks {
  /** Tab through the state (off for states that only differ from the one before by a message). */
  keyboard?: boolean;
  /** Label in name, target size and reading order: the same in both themes, so checked in the first. */
  structure?: boolean;
}

async function checkState(
  page: Page,
  scope: Scope,
  what: string,
  { keyboard = true, structure = true }: Checks = {},
): Promise<void> {
  await expectAxeClean(page, scope, what);
  if (structure) {
    await expectLabelInName(page, scope, what);
    await expectTargetSize(page, scope, what);
    await expectReadingOrder(page, scope, what);
  }
  if (keyboard) await expectKeyboardReach(page, scope, what);
}

/** 1.4.10 at 320 px wide (1280 px at 400 % zoom), then back to the phone. */
async function checkReflow(page: Page, scope: Scope, what: string): Promise<void> {
  await page.setViewportSize(NARROWEST);
  await expectReflow(page, scope, what);
  await expectNoCutText(page, scope, `${what} at 320 px`);
  await page.setViewportSize(PHONE);
}

test.describe('the rules themselves', () => {
  test('label in name compares words, and wants the visible text first', () => {
    // The issue's case: the mobile bar named by other words than it shows.
    expect(
      labelInNameProblem('7.0/10 · 4 reviews Service', 'Reviews of Demo Webshop: Score 7.0 out of 10, 4 reviews'),
    ).not.toBe('');
    expect(labelInNameProblem('7.0 /10', 'Reviews of Demo Webshop: Score 7.0 out of 10')).not.toBe('');
    expect(
      labelInNameProblem('7.0/10 · 4 reviews Service', '7.0 /10 · 4 reviews Service, Reviews of Demo Webshop'),
    ).toBe('');
    expect(labelInNameProblem('Zurück', 'zuruck')).toBe('');
    expect(labelInNameProblem('', 'Close')).toBe('');
  });

  test('target size: 24 px, or room for a 24 px circle', () => {
    const at = (what: string, left: number, top: number, w: number, h: number, inline = false): Control => ({
      mark: 0,
      what,
      visible: '',
      target: { left, top, right: left + w, bottom: top + h },
      inline,
      group: '',
      tabbable: true,
    });
    expect(targetSizeProblems([at('big', 0, 0, 24, 24), at('big too', 24, 0, 24, 24)])).toEqual([]);
    expect(targetSizeProblems([at('small', 0, 0, 16, 16), at('far', 40, 0, 16, 16)])).toEqual([]);
    expect(targetSizeProblems([at('small', 0, 0, 16, 16), at('close', 18, 0, 16, 16)])).toHaveLength(2);
    expect(targetSizeProblems([at('small', 0, 0, 16, 16), at('in a sentence', 18, 0, 16, 16, true)])).toHaveLength(1);
  });
});

test.describe('embed on a desktop, 1280×800', () => {
  test.use({ viewport: DESKTOP });

  for (const theme of THEMES) {
    const structure = theme === 'light';
    test(`sidebar, tooltip, pop-ups and the experience form (${theme})`, async ({ page }) => {
      await open(page, hostUrl('shop.html', { language: 'eng', sidebar_theme: theme }), { waitFor: '.side' });
      await checkState(page, 'embed', `sidebar (${theme})`, { structure });

      await page.locator('#link-popup').hover();
      await expect(page.getByRole('tooltip')).toBeVisible();
      await expectAxeClean(page, 'embed', `tooltip (${theme})`);
      if (structure) await expectReadingOrder(page, 'embed', 'tooltip');
      await page.mouse.move(640, 790);
      await expect(page.getByRole('tooltip')).toHaveCount(0);

      // The shop pop-up, opened with the keyboard.
      await page.locator('.side').focus();
      await page.keyboard.press('Enter');
      await expect(dialog(page)).toBeVisible();
      await checkState(page, 'embed', `shop pop-up (${theme})`, { structure });
      await page.keyboard.press('Escape');
      await page.locator('#link-popup').click();
      await dialog(page).locator('button.btn').click();
      await expect(dialog(page).locator('.review')).toHaveCount(5);
      await checkState(page, 'embed', `shop pop-up with reviews (${theme})`, { structure });
      await page.keyboard.press('Escape');
      await expect(dialog(page)).toHaveCount(0);

      await page.locator('#link-reviews').click();
      await expect(dialog(page).locator('.review')).toHaveCount(5);
      await checkState(page, 'embed', `reviews pop-up (${theme})`, { structure });
      await page.keyboard.press('Escape');

      await page.locator('#link-add').click();
      await checkState(page, 'embed', `experience form (${theme})`, { structure });
      await dialog(page).locator('button[type=submit]').click();
      await expect(dialog(page).locator('.err').first()).toBeVisible();
      await checkState(page, 'embed', `experience form with errors (${theme})`, { keyboard: false, structure });
      if (!structure) return;

      await expectTextSpacing(page, 'embed', 'experience form');
      await page.keyboard.press('Escape');
      await expectNoCutText(page, 'embed', 'sidebar, text spacing');
      await page.locator('#link-popup').hover();
      await expect(page.getByRole('tooltip')).toBeVisible();
      await expectNoCutText(page, 'embed', 'tooltip, text spacing');
      await page.locator('#link-popup').click();
      await dialog(page).locator('button.btn').click();
      await expect(dialog(page).locator('.review')).toHaveCount(5);
      await expectNoCutText(page, 'embed', 'shop pop-up with reviews, text spacing');
    });
  }
});

test.describe('embed on a phone, 390×800', () => {
  test.use({ viewport: PHONE });

  for (const theme of THEMES) {
    const structure = theme === 'light';
    test(`top bar (the default), pop-ups and form (${theme})`, async ({ page }) => {
      await open(page, hostUrl('shop.html', { language: 'eng', sidebar_theme: theme }), { waitFor: '.bar' });
      await checkState(page, 'embed', `top bar (${theme})`, { structure });
      // The bar is the first thing on the page, for the keyboard and in a screen reader's swipe order.
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      const [first] = await tabThrough(page, 'embed', { max: 1 });
      expect(first?.inScope ? first.what : `the shop's ${first?.what}`, 'the first stop').toContain('<button.bar>');

      await page.locator('.bar').click();
      await expect(dialog(page)).toBeVisible();
      await checkState(page, 'embed', `shop pop-up on a phone (${theme})`, { structure });
      await dialog(page).locator('button.btn').click();
      await expect(dialog(page).locator('.review')).toHaveCount(5);
      await checkState(page, 'embed', `shop pop-up with reviews on a phone (${theme})`, { keyboard: false, structure });
      if (structure) await checkReflow(page, 'embed', 'shop pop-up with reviews');
      await page.keyboard.press('Escape');

      await page.locator('#link-reviews').click();
      await expect(dialog(page).locator('.review')).toHaveCount(5);
      await checkState(page, 'embed', `reviews pop-up on a phone (${theme})`, { structure });
      if (structure) await checkReflow(page, 'embed', 'reviews pop-up');
      await page.keyboard.press('Escape');

      await page.locator('#link-add').click();
      await checkState(page, 'embed', `experience form on a phone (${theme})`, { structure });
      await dialog(page).locator('button[type=submit]').click();
      await expect(dialog(page).locator('.err').first()).toBeVisible();
      await expectAxeClean(page, 'embed', `experience form with errors on a phone (${theme})`);
      if (!structure) return;
      await checkReflow(page, 'embed', 'experience form with errors');
      await expectTextSpacing(page, 'embed', 'experience form on a phone');
      await page.keyboard.press('Escape');
      await expectNoCutText(page, 'embed', 'top bar, text spacing');
    });
  }

  // A tab on an edge, a corner and a manual tab (the top bar above): where each sits in the reading order, and its pop-up.
  for (const [mode, tab, first] of [
    ['bottom', 'center', false],
    ['top_right', 'left', true],
    ['bottom_manual', 'right', false],
  ] as const) {
    test(`the ${mode} tab, in both themes`, async ({ page }) => {
      for (const theme of THEMES) {
        const what = `${mode} tab (${theme})`;
        const structure = theme === 'light';
        await open(
          page,
          hostUrl('shop.html', {
            language: 'eng',
            sidebar_theme: theme,
            mobile: mode,
            mobile_tab: tab,
            sidebar_top: '120',
          }),
          { waitFor: '.tab' },
        );
        await checkState(page, 'embed', what, { keyboard: false, structure });
        const stops = await expectKeyboardReach(page, 'embed', what);
        // A tab at the top is read before the page, one at the bottom after it.
        expect(
          stops.findIndex((s) => s.inScope),
          `${what}: place in the reading order`,
        ).toBe(first ? 0 : stops.length - 1);
        await page.locator('.tab').click();
        await expect(dialog(page)).toBeVisible();
        await checkState(page, 'embed', `pop-up from the ${what}`, { keyboard: false, structure });
      }
    });
  }
});

test.describe('focus is never hidden behind our fixed elements (2.4.11)', () => {
  // Forwards, the browser brings the next element into view at the bottom; backwards, at the top.
  const cases: { name: string; viewport: typeof DESKTOP; globals: Record<string, string>; back: boolean }[] = [
    { name: 'the desktop sidebar', viewport: DESKTOP, globals: { sidebar_top: '200' }, back: false },
    { name: 'the mobile top bar', viewport: PHONE, globals: {}, back: true },
    { name: 'a bottom corner tab', viewport: PHONE, globals: { mobile: 'bottom_left' }, back: false },
    { name: 'a top corner tab', viewport: PHONE, globals: { mobile: 'top_left' }, back: true },
  ];
  for (const c of cases) {
    test(`${c.name}: Tab ${c.back ? 'back up' : 'down'} a long page of links along it`, async ({ page }) => {
      await page.setViewportSize(c.viewport);
      await open(page, hostUrl('links.html', { language: 'eng', ...c.globals }), { waitFor: '.side, .bar, .tab' });
      if (c.back) {
        await page.keyboard.press('End');
        await expect.poll(() => page.evaluate(() => scrollY)).toBeGreaterThan(0);
      }
      const stops = await expectKeyboardReach(page, 'embed', c.name, { back: c.back });
      expect(stops.filter((s) => !s.inScope).length, 'the shop’s links').toBeGreaterThanOrEqual(30);
      // The case the criterion is about did come up (and the checks above found the element visible each time).
      expect(stops.filter((s) => s.underOurs).length, `${c.name}: focus landed where it is`).toBeGreaterThan(0);
    });
  }
});

test.describe('consent dialog and the review form after it', () => {
  for (const viewport of [DESKTOP, PHONE]) {
    test(`${viewport.width} px, both themes`, async ({ page }) => {
      await page.setViewportSize(viewport);
      const phone = viewport === PHONE;
      for (const theme of THEMES) {
        const structure = theme === 'light';
        await open(
          page,
          hostUrl(
            'thankyou.html',
            { language: 'eng', sidebar_theme: theme },
            { shape: 'typed', order: uniqueOrder('a11y'), email: '' },
          ),
          {
            waitFor: 'dialog[open]',
          },
        );
        await checkState(page, 'embed', `consent dialog (${theme})`, { structure });
        if (phone && structure) await checkReflow(page, 'embed', 'consent dialog');
        // Keyboard alone: the first choice has the focus; Enter takes it.
        await dialog(page).getByRole('button', { name: 'Write a review now' }).focus();
        await page.keyboard.press('Enter');
        await expect(dialog(page).locator('form')).toBeVisible();
        await checkState(page, 'embed', `review form (${theme})`, { structure });
        await dialog(page).locator('button[type=submit]').focus();
        await page.keyboard.press('Enter');
        await expect(dialog(page).locator('.err').first()).toBeVisible();
        await checkState(page, 'embed', `review form with errors (${theme})`, { keyboard: false, structure });
        if (!structure) continue;
        if (phone) await checkReflow(page, 'embed', 'review form with errors');
        await expectTextSpacing(page, 'embed', 'review form');

        // Filled in and sent with the keyboard alone.
        await dialog(page).locator('#rating-1').focus();
        await page.keyboard.press('ArrowRight');
        await dialog(page).locator('#f-email').focus();
        await page.keyboard.type(`a11y-${Date.now()}@example.com`);
        await dialog(page).locator('#f-name').focus();
        await page.keyboard.type('Kim');
        await page.keyboard.press('Enter');
        await expect(dialog(page).getByRole('status')).toBeVisible();
        await expectAxeClean(page, 'embed', 'review sent');
        await expectNoCutText(page, 'embed', 'review sent, text spacing');
      }
    });
  }

  test('"Ask me later" and its thank-you, in both themes', async ({ page }) => {
    for (const theme of THEMES) {
      await open(
        page,
        hostUrl(
          'thankyou.html',
          { language: 'eng', sidebar_theme: theme },
          { shape: 'typed', order: uniqueOrder('later') },
        ),
        { waitFor: 'dialog[open]' },
      );
      await dialog(page).getByRole('button', { name: 'Ask me later' }).focus();
      await page.keyboard.press('Enter');
      await expect(dialog(page).getByRole('status')).toBeVisible();
      await checkState(page, 'embed', `asked later (${theme})`, { structure: theme === 'light' });
    }
  });
});

test.describe('label in name in all seven languages', () => {
  for (const lang of LANGUAGES) {
    test(`embed in ${lang}`, async ({ page }) => {
      const globals = { language: ISO3[lang] };
      await page.setViewportSize(DESKTOP);
      await open(page, hostUrl('shop.html', globals), { waitFor: '.side' });
      await expectLabelInName(page, 'embed', `${lang}: sidebar`);
      await page.locator('.side').click();
      await dialog(page).locator('button.btn').click();
      await expect(dialog(page).locator('.review')).toHaveCount(5);
      await expectLabelInName(page, 'embed', `${lang}: shop pop-up`);
      await page.keyboard.press('Escape');
      await page.locator('#link-add').click();
      await dialog(page).locator('button[type=submit]').click();
      await expect(dialog(page).locator('.err').first()).toBeVisible();
      await expectLabelInName(page, 'embed', `${lang}: experience form`);
      await page.keyboard.press('Escape');
      await page.setViewportSize(PHONE);
      await page.locator('.bar').waitFor();
      await expectLabelInName(page, 'embed', `${lang}: top bar`);

      await open(
        page,
        hostUrl(
          'thankyou.html',
          { ...globals, mobile: 'top_left' },
          { shape: 'typed', order: uniqueOrder(lang), email: '' },
        ),
        { waitFor: 'dialog[open]' },
      );
      await expectLabelInName(page, 'embed', `${lang}: consent dialog`);
      await dialog(page).locator('button.btn').click();
      await expect(dialog(page).locator('form')).toBeVisible();
      await expectLabelInName(page, 'embed', `${lang}: review form`);
      await page.keyboard.press('Escape');
      await page.locator('.tab').waitFor();
      await expectLabelInName(page, 'embed', `${lang}: tab`);
    });
  }
});

test.describe('server pages', () => {
  const base = () => process.env.WIDGET_BASE!;
  let client: MongoClient;
  let db: Db;
  let shop: Webshop;
  let counter = 0;

  test.beforeAll(async () => {
    client = new MongoClient(process.env.E2E_MONGODB_URI!);
    await client.connect();
    db = client.db(process.env.E2E_MONGODB_DB!);
    shop = await new WebshopStore(db, new Caches({ ttlMs: 0, maxBytes: 1_000_000 }).cache('webshops')).create({
      name: 'Toegankelijke Fietsen',
      url: 'https://fietsen.example/',
      approved_date: '2022-05-01',
      languages: [{ name: 'Nederlands', url: 'https://fietsen.example/', iso: 'nl', all: false, main: true }],
    });
    const reviews = new ReviewStore(db);
    for (let i = 0; i < 12; i++) {
      await reviews.create(shop.id, {
        name: `Klant ${i}`,
        email: `a11y${i}@example.com`,
        rating: 3 + (i % 3),
        language: 'nl',
        comment: 'Goed geholpen, snel geleverd.',
        created: new Date(Date.UTC(2025, 3, 20 - i)),
        verified: i % 2 === 0,
        source: 'invitation',
      });
    }
  });

  test.afterAll(async () => {
    await client.close();
  });

  async function invitationLink(language: Language): Promise<string> {
    const result = await new InvitationStore(db).add(shop.id, {
      email: `a11y-${language}-${++counter}@example.com`,
      order: `A11Y-${language}-${counter}`,
      language,
      delay: 0,
      customerName: 'Jane',
      products: [
        { external_id: 'p1', name: 'Fietsbel', url: '', image_url: '', sku: '', gtin: '', mpn: '', brand: '' },
      ],
      client: null,
      platformVersion: null,
      pluginVersion: null,
      maxPerEmail: null,
    });
    if (!result.added) throw new Error('invitation not added');
    return `${base()}/review/${result.invitation.token}`;
  }

  async function waitingReview(language: Language) {
    const n = ++counter;
    return new ReviewStore(db).create(shop.id, {
      name: 'Jane',
      email: `a11y-wait-${n}@example.com`,
      rating: 4,
      language,
      comment: 'Prima',
      source: 'popup',
      quarantine: true,
      confirmToken: `a11y-confirm-${n}-abcdefghijklmnop`,
      editToken: `a11y-edit-${n}-abcdefghijklmnopqr`,
    });
  }

  for (const viewport of [DESKTOP, PHONE]) {
    test(`every page at ${viewport.width} px`, async ({ page }) => {
      await page.setViewportSize(viewport);
      const phone = viewport === PHONE;
      // The pages have one look: the structure checks once, at the desktop width.
      const structure = !phone;
      const link = await invitationLink('en');
      await page.goto(link);
      await checkState(page, 'page', 'review form', { structure });
      if (phone) await checkReflow(page, 'page', 'review form');
      await page.evaluate(() => document.querySelector('form')!.setAttribute('novalidate', ''));
      await page.locator('#name').fill('');
      await page.locator('button[type=submit]').click();
      await expect(page.getByRole('alert')).toBeVisible();
      await checkState(page, 'page', 'review form with errors', { keyboard: false, structure });
      if (phone) await checkReflow(page, 'page', 'review form with errors');
      else await expectTextSpacing(page, 'page', 'review form');

      // Rated and sent with the keyboard alone.
      await page.locator('#rating-1').focus();
      await page.keyboard.press('ArrowRight');
      await page.locator('#name').focus();
      await page.keyboard.type('Jane');
      await page.keyboard.press('Enter');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Thank you for your review');
      await checkState(page, 'page', 'thank-you page', { structure });
      // A link that no longer works (used; unknown and expired links have the same page).
      await page.goto(link);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('You already wrote this review');
      await expectAxeClean(page, 'page', 'used link');
      if (phone) await checkReflow(page, 'page', 'used link');

      const waiting = await waitingReview('en');
      await page.goto(`${base()}/confirm/${waiting.confirmToken}`);
      await checkState(page, 'page', 'confirmation page', { structure });
      if (phone) await checkReflow(page, 'page', 'confirmation page');
      await page.getByRole('button').focus();
      await page.keyboard.press('Enter');
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expectAxeClean(page, 'page', 'confirmed page');

      await page.goto(`${base()}/edit/${waiting.editToken}`);
      await checkState(page, 'page', 'edit page', { structure });
      if (phone) await checkReflow(page, 'page', 'edit page');
      await page.locator('button[type=submit]').focus();
      await page.keyboard.press('Enter');
      await expect(page.getByRole('status')).toBeVisible();
      await expectAxeClean(page, 'page', 'edit page, saved');

      await page.goto(`${base()}/webshops/${shop.id}?lang=en`);
      await checkState(page, 'page', 'shop page', { structure });
      if (phone) await checkReflow(page, 'page', 'shop page');
      else await expectTextSpacing(page, 'page', 'shop page');

      await page.goto(`${base()}/review/doesnotexistdoesnotexist`);
      await expectAxeClean(page, 'page', 'unknown link');
      if (phone) await checkReflow(page, 'page', 'unknown link');
    });
  }

  test('label in name on every page in all seven languages', async ({ page }) => {
    for (const lang of LANGUAGES) {
      await page.goto(await invitationLink(lang));
      await expectLabelInName(page, 'page', `${lang}: review form`);
      const waiting = await waitingReview(lang);
      await page.goto(`${base()}/confirm/${waiting.confirmToken}`);
      await expectLabelInName(page, 'page', `${lang}: confirmation page`);
      await page.goto(`${base()}/edit/${waiting.editToken}`);
      await expectLabelInName(page, 'page', `${lang}: edit page`);
      await page.goto(`${base()}/webshops/${shop.id}?lang=${lang}`);
      await expectLabelInName(page, 'page', `${lang}: shop page`);
    }
  });
});

test.describe('widget layouts', () => {
  const base = () => process.env.WIDGET_BASE!;
  const widget = (layout: string, theme: string, language: string, width: number, height: number) =>
    `${base()}/webshops/widget_html?${new URLSearchParams({ id: process.env.WIDGET_SHOP!, layout, theme, language, width: 'manual', width_amount: `${width}px`, height: String(height) })}`;

  for (const layout of LAYOUTS) {
    test(`${layout}: both themes at its documented width, and at its narrowest`, async ({ page }) => {
      const info = LAYOUT_INFO[layout];
      const height = recommendedHeight(layout, { show: true, view: 'slider', amount: 3 });
      // The widget's window is its iframe: the page is shown at the iframe's size (a phone's width is the narrowest).
      for (const [theme, width] of [
        ['light', info.width],
        ['dark', info.width],
        ['light', info.minWidth],
      ] as const) {
        const what = `${layout} ${theme} ${width} px`;
        await page.setViewportSize({ width, height });
        await page.goto(widget(layout, theme, 'eng', width, height));
        await checkState(page, 'page', what, { structure: theme === 'light' });
        // Review texts and long names are excerpts by design (the whole review is on the shop's page), and the
        // slides not shown wait beside the window.
        if (theme === 'light') await expectTextSpacing(page, 'page', what, '[inert], .rc, .rp, .rh b');
      }
    });
  }

  test('the slider works with the keyboard', async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 260 });
    await page.goto(widget('new_default', 'light', 'eng', 360, 260));
    await page.getByRole('button', { name: 'Next review' }).focus();
    await page.keyboard.press('Enter');
    await expect(page.locator('[data-slider]')).toHaveAttribute('data-index', '1');
    const toggle = page.locator('[data-pause]');
    const before = await toggle.getAttribute('aria-label');
    await toggle.focus();
    await page.keyboard.press('Space');
    await expect(toggle).not.toHaveAttribute('aria-label', before!);
  });

  test('label in name in all seven languages', async ({ page }) => {
    for (const layout of LAYOUTS) {
      const info = LAYOUT_INFO[layout];
      const height = recommendedHeight(layout, { show: true, view: 'slider', amount: 3 });
      await page.setViewportSize({ width: info.width, height });
      for (const lang of LANGUAGES) {
        await page.goto(widget(layout, 'light', ISO3[lang], info.width, height));
        await expectLabelInName(page, 'page', `${layout} in ${lang}`);
      }
    }
  });

  test('configurator at 1280 and 390 px', async ({ page }) => {
    for (const viewport of [DESKTOP, PHONE]) {
      await page.setViewportSize(viewport);
      await page.goto(`${base()}/webshops/widget?id=${process.env.WIDGET_SHOP}`);
      await checkState(page, 'page', `configurator at ${viewport.width} px`, { structure: viewport === DESKTOP });
    }
  });
});
