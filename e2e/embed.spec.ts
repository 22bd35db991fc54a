// The sidebar script on demo shop pages served from another site (127.0.0.2) in Debian's Chromium: sidebar,
// tooltips and pop-ups, every page global, the mobile modes, a strict CSP, a single-page app, isolation both ways,
// keyboard use and axe-core. Screenshots of each state in both themes are kept as artifacts.
import { expect, test, type Page } from '@playwright/test';
import {
  expectAccessible,
  focused,
  host,
  hostUrl,
  open,
  recordRequests,
  reviewCount,
  screenshot,
  service,
} from './embed-helpers.js';

const EN = { language: 'eng' };

/** The embed's own elements (Playwright's CSS locators pierce its open shadow root). */
const sidebar = (page: Page) => page.locator('.side');
const dialog = (page: Page) => page.locator('dialog[open]');
const tooltip = (page: Page) => page.getByRole('tooltip');

test.describe('desktop sidebar', () => {
  test('shows score, count and badges on the left 300 px from the top, in the dark theme, in the shop language', async ({
    page,
  }) => {
    await open(page, hostUrl('shop.html'), { waitFor: '.side' });
    const side = sidebar(page);
    await expect(side).toContainText('/10');
    await expect(side).toContainText(`${await reviewCount()} beoordelingen`);
    await expect(page.locator('.t')).toHaveClass(/dark/);
    const box = (await side.boundingBox())!;
    expect(box.x).toBe(0);
    expect(box.y).toBe(300);
    // The three badges: approved, share of verified reviews, years of membership.
    await expect(side.locator('.icons > span')).toHaveCount(3);
    for (const theme of ['dark', 'light']) {
      await open(page, hostUrl('shop.html', { ...EN, sidebar_theme: theme }), { waitFor: '.side' });
      await screenshot(page, `sidebar-${theme}`);
      await screenshot(sidebar(page), `sidebar-closeup-${theme}`);
    }
  });

  test('opens the shop pop-up: focus moves in, stays in, Escape closes and focus returns', async ({ page }) => {
    await open(page, hostUrl('shop.html', EN), { waitFor: '.side' });
    await sidebar(page).focus();
    await page.keyboard.press('Enter');
    await expect(dialog(page)).toBeVisible();
    await expect(dialog(page).getByRole('heading', { level: 2 })).toHaveText('Trapper Bikes');
    await expect(dialog(page)).toContainText('Approved shop since');
    await expect(dialog(page)).toContainText('% of reviews from verified customers');
    await expect(dialog(page)).toContainText('Member for 3 years');
    expect((await focused(page)).inDialog).toBe(true);
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press('Tab');
      expect((await focused(page)).inDialog, `after ${i + 1} Tab`).toBe(true);
    }
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press('Shift+Tab');
      expect((await focused(page)).inDialog, `after ${i + 1} Shift+Tab`).toBe(true);
    }
    await page.keyboard.press('Escape');
    await expect(dialog(page)).toHaveCount(0);
    await expect.poll(async () => (await focused(page)).cls, { timeout: 2000 }).toContain('side');
  });

  test('the shop pop-up shows the reviews inside, paged, newest first, with replies', async ({ page }) => {
    await open(page, hostUrl('shop.html', EN), { waitFor: '.side' });
    await sidebar(page).click();
    await dialog(page).getByRole('button', { name: 'Show reviews' }).click();
    const reviews = dialog(page).locator('.review');
    const pages = Math.ceil((await reviewCount()) / 5);
    await expect(reviews).toHaveCount(5);
    const marieke = reviews.filter({ hasText: 'Marieke' });
    await expect(marieke).toContainText('Reply from Trapper Bikes');
    await expect(marieke).toContainText('Imported from Kiyoh');
    await expect(dialog(page)).toContainText(`Page 1 of ${pages}`);
    for (let p = 2; p <= pages; p++) await dialog(page).getByRole('button', { name: 'Next' }).click();
    await expect(dialog(page)).toContainText(`Page ${pages} of ${pages}`);
    // Newest first: the oldest review is the last one.
    await expect(reviews.last()).toContainText('Lotte');
    await expect(dialog(page).getByRole('link', { name: 'All reviews on Service' })).toHaveAttribute(
      'href',
      `${service()}/webshops/${process.env.EMBED_SHOP}`,
    );
    await expectAccessible(page, 'shop pop-up with reviews');
    await screenshot(page, 'popup-shop-dark');
  });

  test('a click on the plain class opens the same shop pop-up; links keep their target with a modifier key', async ({
    page,
  }) => {
    await open(page, hostUrl('shop.html', EN));
    await page.locator('#link-plain').click();
    await expect(dialog(page).getByRole('heading', { level: 2 })).toHaveText('Trapper Bikes');
    await page.keyboard.press('Escape');
    await expect(dialog(page)).toHaveCount(0);
    await expect.poll(() => page.evaluate(() => document.activeElement?.id), { timeout: 2000 }).toBe('link-plain');
    await page.locator('#link-popup').click();
    await expect(dialog(page)).toContainText('Shop details');
  });

  test('serviceReviews opens the reviews pop-up', async ({ page }) => {
    for (const theme of ['dark', 'light']) {
      await open(page, hostUrl('shop.html', { ...EN, sidebar_theme: theme }));
      await page.locator('#link-reviews').click();
      await expect(dialog(page).getByRole('heading', { level: 2 })).toHaveText('Reviews of Trapper Bikes');
      await expect(dialog(page).locator('.review')).toHaveCount(5);
      await expectAccessible(page, `reviews pop-up (${theme})`);
      await screenshot(page, `popup-reviews-${theme}`);
    }
  });

  test('each review says where it came from and can be reported; the pop-up links to how reviews are checked', async ({
    page,
  }) => {
    await open(page, hostUrl('shop.html', EN));
    await page.locator('#link-reviews').click();
    const reviews = dialog(page).locator('.review');
    /** Pages (Next or Previous) until the review by `name` is shown; each page is waited for. */
    const pageTo = async (name: string, button: 'Next' | 'Previous') => {
      await expect(reviews.first()).toBeVisible();
      while (!(await reviews.filter({ hasText: name }).count())) {
        const first = (await reviews.first().textContent())!;
        await dialog(page).getByRole('button', { name: button }).click();
        await expect(reviews.first()).not.toHaveText(first);
      }
    };
    await pageTo('Peter', 'Next');
    const peter = reviews.filter({ hasText: 'Peter' });
    // The label, and what it means for a screen reader (hidden from sight, in the accessible text).
    await expect(peter.locator('.lab')).toHaveText(
      /^Imported \(Collected elsewhere and imported; not checked by Service\.\)$/,
    );
    await expect(peter.locator('.lab .sr')).not.toBeInViewport();
    const report = peter.getByRole('link', { name: 'Report the review by Peter (opens in a new tab)' });
    await expect(report).toHaveText('Report');
    await expect(report).toHaveAttribute('target', '_blank');
    const href = (await report.getAttribute('href'))!;
    expect(href).toMatch(new RegExp(`^${service()}/reviews/\\d+/report$`));
    await expect(dialog(page).getByRole('link', { name: 'How reviews are checked' })).toHaveAttribute(
      'href',
      `${service()}/webshops/${process.env.EMBED_SHOP}/policy`,
    );
    await pageTo('Tom B.', 'Previous');
    const tom = reviews.filter({ hasText: 'Tom B.' });
    await expect(tom.locator('.lab')).toHaveText([
      'Imported from Kiyoh (Collected elsewhere and imported; not checked by Service.)',
      'Incentivised (The writer was offered something for writing a review.)',
    ]);
    await expectAccessible(page, 'reviews pop-up with labels');
    // In another language, the labels and links are translated.
    await open(page, hostUrl('shop.html', { language: 'deu' }));
    await page.locator('#link-reviews').click();
    // (Other specs add reviews of their own origin: any of the German labels.)
    await expect(dialog(page).locator('.lab').first()).toContainText(
      /^(Importiert|Verifizierte Bestellung|E-Mail bestätigt)/,
    );
    await expect(dialog(page).getByRole('link', { name: 'So werden Bewertungen geprüft' })).toBeVisible();
  });

  test('a click made before the app has arrived opens its pop-up once the app is there, once', async ({ page }) => {
    let release = () => {};
    const released = new Promise<void>((ok) => (release = ok));
    let asked = () => {};
    const appAsked = new Promise<void>((ok) => (asked = ok));
    await page.route('**/embed/assets/*/app.js', async (route) => {
      asked();
      await released;
      await route.continue();
    });
    await page.goto(hostUrl('shop.html', EN));
    await appAsked;
    // Twice, as an impatient shopper does; the link's own target is not followed.
    await page.locator('#link-reviews').click();
    await page.locator('#link-reviews').click();
    expect(new URL(page.url()).hash).toBe('');
    await expect(page.locator('.t')).toHaveCount(0);
    release();
    await expect(dialog(page).getByRole('heading', { level: 2 })).toHaveText('Reviews of Trapper Bikes');
    await expect(dialog(page)).toHaveCount(1);
    await page.keyboard.press('Escape');
    await expect(dialog(page)).toHaveCount(0);
    // Nothing else was waiting to open.
    await page.waitForTimeout(500);
    await expect(dialog(page)).toHaveCount(0);
    // From now on the app answers clicks itself.
    await page.locator('#link-popup').click();
    await expect(dialog(page)).toContainText('Shop details');
  });

  test('a click on the experience link before the app has arrived opens the form (from its second bundle)', async ({
    page,
  }) => {
    let release = () => {};
    const released = new Promise<void>((ok) => (release = ok));
    const urls = recordRequests(page);
    await page.route('**/embed/assets/*/app.js', async (route) => {
      await released;
      await route.continue();
    });
    await page.goto(hostUrl('shop.html', EN));
    await expect.poll(() => urls.some((u) => u.endsWith('/app.js'))).toBe(true);
    await page.locator('#link-add').click();
    release();
    await expect(dialog(page).getByRole('heading', { level: 2 })).toHaveText(
      'Share your experience with Trapper Bikes',
    );
    expect(urls.filter((u) => u.endsWith('/form.js'))).toHaveLength(1);
  });

  test('serviceAddReview opens the experience form: validated, honeypot hidden, accepted pending confirmation', async ({
    page,
  }) => {
    for (const theme of ['light', 'dark']) {
      await open(page, hostUrl('shop.html', { ...EN, sidebar_theme: theme }));
      await page.locator('#link-add').click();
      await expect(dialog(page).getByRole('heading', { level: 2 })).toHaveText(
        'Share your experience with Trapper Bikes',
      );
      await expectAccessible(page, `experience form (${theme})`);
      await screenshot(page, `popup-add-review-${theme}`);
    }
    const form = dialog(page);
    await expect(form.locator('input[name=website]')).not.toBeInViewport();
    await form.getByRole('button', { name: 'Send review' }).click();
    await expect(form).toContainText('Choose an overall score.');
    await expect(form).toContainText('Enter your name.');
    await expect(form).toContainText('Enter a valid e-mail address.');
    // The star inputs are a radio group: arrow keys move the choice.
    await form.getByRole('radio', { name: '1 star', exact: true }).first().focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await expect(form.getByRole('radio', { name: '4 stars' }).first()).toBeChecked();
    // An optional sub-score given by mistake can be taken back.
    const sub = form.getByRole('group', { name: /Delivery time/ });
    await sub.locator('label').filter({ hasText: '2 stars' }).click();
    await expect(sub.getByRole('radio', { name: '2 stars' })).toBeChecked();
    await sub.locator('label').filter({ hasText: 'No rating' }).click();
    await expect(sub.getByRole('radio', { name: 'No rating' })).toBeChecked();
    await expect(sub.getByRole('radio', { name: '2 stars' })).not.toBeChecked();
    await form.getByLabel('Your review', { exact: true }).fill('Friendly advice in the shop.');
    await form.getByLabel('Your name').fill('Walk-in customer');
    await form.getByLabel('Your e-mail address').fill(`walkin-${Date.now()}@example.com`);
    await form.getByRole('button', { name: 'Send review' }).click();
    await expect(form.getByRole('status')).toContainText('confirm your review with the link');
  });
});

test.describe('tooltips', () => {
  test('show on hover and on keyboard focus, with score, count and badges; Escape hides them', async ({ page }) => {
    await open(page, hostUrl('shop.html', EN));
    await page.locator('#link-popup').hover();
    await expect(tooltip(page)).toBeVisible();
    await expect(tooltip(page)).toContainText(`${await reviewCount()} reviews`);
    await expect(tooltip(page)).toContainText('Approved shop since');
    await screenshot(page, 'tooltip-dark');
    await page.mouse.move(5, 700);
    await expect(tooltip(page)).toHaveCount(0);
    await page.locator('#link-reviews').focus();
    await expect(tooltip(page)).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(tooltip(page)).toHaveCount(0);
    await open(page, hostUrl('shop.html', { ...EN, sidebar_theme: 'light' }));
    await page.locator('#link-plain').hover();
    await expect(tooltip(page)).toBeVisible();
    await expectAccessible(page, 'tooltip');
    await screenshot(page, 'tooltip-light');
  });

  test('_service_tooltip=false: no tooltip, but a click still opens the pop-up', async ({ page }) => {
    await open(page, hostUrl('shop.html', { ...EN, tooltip: false }));
    await page.locator('#link-popup').hover();
    await page.waitForTimeout(300);
    await expect(tooltip(page)).toHaveCount(0);
    await page.locator('#link-popup').click();
    await expect(dialog(page)).toBeVisible();
  });
});

test.describe('page globals', () => {
  test('position right, offset as a percentage, light theme', async ({ page }) => {
    await open(page, hostUrl('shop.html', { sidebar_position: 'right', sidebar_top: '40%', sidebar_theme: 'light' }), {
      waitFor: '.side',
    });
    const box = (await sidebar(page).boundingBox())!;
    const viewport = page.viewportSize()!;
    expect(Math.round(box.x + box.width)).toBe(viewport.width);
    expect(Math.round(box.y)).toBe(Math.round(viewport.height * 0.4));
    await expect(page.locator('.t')).toHaveClass(/light/);
  });

  test('_service_sidebar=false hides the sidebar; the classes still work', async ({ page }) => {
    await open(page, hostUrl('shop.html', { ...EN, sidebar: false }));
    await expect(sidebar(page)).toHaveCount(0);
    await page.locator('#link-reviews').click();
    await expect(dialog(page)).toBeVisible();
  });

  test('no sidebar and no classes: the app is not loaded at all', async ({ page }) => {
    const requests = recordRequests(page);
    await page.goto(hostUrl('thankyou.html', { sidebar: false }));
    await page.waitForTimeout(1500);
    expect(requests.filter((u) => u.includes('/embed/assets/'))).toEqual([]);
    expect(requests.some((u) => u.includes('/shop.json'))).toBe(true);
  });

  test('an invalid global falls back with one console warning', async ({ page }) => {
    const warnings: string[] = [];
    page.on('console', (m) => m.type() === 'warning' && warnings.push(m.text()));
    await open(page, hostUrl('shop.html', { sidebar_theme: 'purple', sidebar_position: 'middle' }), {
      waitFor: '.side',
    });
    await expect(page.locator('.t')).toHaveClass(/dark/);
    expect(warnings.filter((w) => w.includes('_service_sidebar_theme'))).toHaveLength(1);
    expect(warnings.filter((w) => w.includes('_service_sidebar_position'))).toHaveLength(1);
  });

  test('_service_language: ISO 639-3, url, html and browser', async ({ page, browser }) => {
    const n = await reviewCount();
    await open(page, hostUrl('shop.html', { language: 'deu' }), { waitFor: '.side' });
    await expect(sidebar(page)).toContainText(`${n} Bewertungen`);
    await open(page, `${host()}/fr/shop.html?_service_language=url`, { waitFor: '.side' });
    await expect(sidebar(page)).toContainText(`${n} avis`);
    await open(page, hostUrl('shop.html', { language: 'url' }, { lang: 'es' }), { waitFor: '.side' });
    await expect(sidebar(page)).toContainText(`${n} opiniones`);
    await open(page, hostUrl('shop.html', { language: 'html' }, { htmllang: 'hr-HR' }), { waitFor: '.side' });
    await expect(sidebar(page)).toContainText(`${n} recenzija`);
    const italian = await browser.newContext({ locale: 'it-IT' });
    const other = await italian.newPage();
    await open(other, hostUrl('shop.html', { language: 'browser' }), { waitFor: '.side' });
    await expect(other.locator('.side')).toContainText(`${n} recensioni`);
    await italian.close();
  });
});

test.describe('mobile', () => {
  // Reduced motion also checks that the pop-ups then appear without their slide-in.
  test.use({ viewport: { width: 390, height: 800 }, hasTouch: true, reducedMotion: 'reduce' });

  test('top_bar (the default) pushes the page down by its height once; the others overlay', async ({ page }) => {
    await page.goto(hostUrl('shop.html', {}, { embed: '0' }));
    const before = (await page.locator('h1').boundingBox())!.y;
    await open(page, hostUrl('shop.html', EN), { waitFor: '.bar' });
    const bar = (await page.locator('.bar').boundingBox())!;
    expect(bar).toMatchObject({ x: 0, y: 0, width: 390, height: 48 });
    expect((await page.locator('h1').boundingBox())!.y).toBe(before + 48);
    await screenshot(page, 'mobile-top_bar-dark');
    await page.locator('.bar').click();
    await expect(dialog(page)).toBeVisible();
    expect((await dialog(page).boundingBox())!.y).toBe(0);
    await screenshot(page, 'mobile-popup-dark');

    await open(page, hostUrl('shop.html', { ...EN, mobile: 'bottom' }), { waitFor: '.tab' });
    expect((await page.locator('h1').boundingBox())!.y).toBe(before);
  });

  const cases: [string, string, (box: { x: number; y: number; width: number; height: number }) => void][] = [
    [
      'top',
      'center',
      (b) => {
        expect(b.y).toBe(0);
        expect(Math.abs(b.x + b.width / 2 - 195)).toBeLessThanOrEqual(1);
      },
    ],
    [
      'top',
      'right',
      (b) => {
        expect(b.y).toBe(0);
        expect(b.x + b.width).toBe(390);
      },
    ],
    [
      'bottom',
      'left',
      (b) => {
        expect(b.y + b.height).toBe(800);
        expect(b.x).toBe(0);
      },
    ],
    [
      'top_left',
      'right',
      (b) => {
        expect(b.y).toBe(0);
        expect(b.x).toBe(0);
      },
    ],
    [
      'top_right',
      'left',
      (b) => {
        expect(b.y).toBe(0);
        expect(b.x + b.width).toBe(390);
      },
    ],
    [
      'bottom_left',
      'right',
      (b) => {
        expect(b.y + b.height).toBe(800);
        expect(b.x).toBe(0);
      },
    ],
    [
      'bottom_right',
      'left',
      (b) => {
        expect(b.y + b.height).toBe(800);
        expect(b.x + b.width).toBe(390);
      },
    ],
    [
      'top_manual',
      'left',
      (b) => {
        expect(b.y).toBe(120);
        expect(b.x).toBe(0);
      },
    ],
    [
      'bottom_manual',
      'right',
      (b) => {
        expect(b.y + b.height).toBe(800 - 120);
        expect(b.x + b.width).toBe(390);
      },
    ],
  ];
  for (const [mode, tab, check] of cases) {
    test(`${mode} with the tab ${tab}`, async ({ page }) => {
      await open(page, hostUrl('shop.html', { ...EN, mobile: mode, mobile_tab: tab, sidebar_top: '120' }), {
        waitFor: '.tab',
      });
      check((await page.locator('.tab').boundingBox())!);
      await expect(page.locator('.side')).toHaveCount(0);
      await screenshot(page, `mobile-${mode}-${tab}`);
      await page.locator('.tab').tap();
      await expect(dialog(page)).toBeVisible();
      const sheet = (await dialog(page).boundingBox())!;
      if (mode.startsWith('bottom')) expect(Math.round(sheet.y + sheet.height)).toBe(800);
      else expect(sheet.y).toBe(0);
    });
  }

  test('none shows nothing on a narrow screen', async ({ page }) => {
    await open(page, hostUrl('shop.html', { mobile: 'none' }));
    await page.waitForTimeout(300);
    await expect(page.locator('.tab, .bar, .side')).toHaveCount(0);
  });
});

test.describe('the shop page stays the shop’s', () => {
  test('no cookies, no third-party requests, no new globals, styles isolated both ways', async ({ page, context }) => {
    const requests = recordRequests(page);
    await page.goto(hostUrl('shop.html', {}, { embed: '0' }));
    const globalsBefore = await page.evaluate(() => Object.keys(window));
    const styleOf = () =>
      page
        .locator('.products li')
        .first()
        .evaluate((el) => {
          const s = getComputedStyle(el);
          return `${s.padding} ${s.margin} ${s.fontFamily} ${s.fontSize} ${s.boxSizing}`;
        });
    const pageStyleBefore = await styleOf();
    await open(page, hostUrl('shop.html', EN), { waitFor: '.side' });
    await page.locator('#link-reviews').click();
    await expect(dialog(page).locator('.review').first()).toBeVisible();
    // The page's unfriendly CSS (20 px root font, content-box, padded divs) does not reach the embed...
    const inside = await page.locator('.t').evaluate((el) => {
      const s = getComputedStyle(el);
      return { font: s.fontSize, family: s.fontFamily };
    });
    expect(inside.font).toBe('14px');
    expect(inside.family).toContain('system-ui');
    expect(await page.locator('.side').evaluate((el) => getComputedStyle(el).boxSizing)).toBe('border-box');
    // ...and the embed's CSS does not reach the page.
    expect(await styleOf()).toBe(pageStyleBefore);
    // (The `_service_*` globals are the shop's own, set by the page before the snippet.)
    const globalsAfter = await page.evaluate(() => Object.keys(window).filter((k) => !k.startsWith('_service_')));
    expect(globalsAfter.filter((k) => !globalsBefore.includes(k))).toEqual([]);
    expect(await context.cookies()).toEqual([]);
    const origins = new Set(requests.map((u) => new URL(u).origin));
    expect([...origins].sort()).toEqual([host(), service()].sort());
    // Every call the embed made is cross-site: page on 127.0.0.2, service on 127.0.0.1.
    expect(new URL(host()).hostname).toBe('127.0.0.2');
    expect(new URL(service()).hostname).toBe('127.0.0.1');
  });

  test('a page with a strict Content Security Policy that allows our origin', async ({ page }) => {
    const violations: string[] = [];
    const failed: string[] = [];
    page.on('response', (r) => r.status() >= 400 && failed.push(`${r.status()} ${r.url()}`));
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) =>
        console.error(`CSP: ${e.violatedDirective} ${e.blockedURI}`),
      );
    });
    page.on('console', (m) => m.text().startsWith('CSP:') && violations.push(m.text()));
    await open(page, `${host()}/csp.html?_service_language=eng`, { waitFor: '.side' });
    await expect(sidebar(page)).toContainText('/10');
    await page.locator('#link-plain').hover();
    await expect(tooltip(page)).toBeVisible();
    await page.locator('#link-reviews').click();
    await expect(dialog(page).locator('.review')).toHaveCount(5);
    await page.keyboard.press('Escape');
    await page.locator('#link-add').click();
    await expect(dialog(page).getByRole('button', { name: 'Send review' })).toBeVisible();
    // Our styles apply (constructed stylesheets are not inline styles under CSP).
    expect(await sidebar(page).evaluate((el) => getComputedStyle(el).position)).toBe('fixed');
    expect(violations).toEqual([]);
    expect(failed.filter((e) => !e.endsWith('/favicon.ico'))).toEqual([]);
  });

  test('a single-page app: tooltip elements and the order element that appear after load', async ({ page }) => {
    await open(page, hostUrl('spa.html', EN), { waitFor: '.side' });
    await page.locator('#nav-products').click();
    await page.locator('#link-plain').hover();
    await expect(tooltip(page)).toBeVisible();
    await page.locator('#link-reviews').click();
    await expect(dialog(page).locator('.review').first()).toBeVisible();
    await page.keyboard.press('Escape');
    await page.locator('#nav-thanks').click();
    await expect(dialog(page).getByRole('button', { name: 'Write a review now' })).toBeVisible();
  });
});
