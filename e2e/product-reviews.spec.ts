// The product block (issue 22) in Chromium on a shop's product page on another site (e2e/hosts/product.html on
// 127.0.0.2): filled from the server's fragment inside a shadow root, no layout shift, the product's JSON-LD added
// to <head> once (also when the loader runs again), paging and the star filter by keyboard, several products on one
// page, the empty state the shop hides, and no layout shift and axe-core at 1280 and 390 px in both themes.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { hostUrl, service, shopId } from './embed-helpers.js';

const AXE = readFileSync(join('node_modules', 'axe-core', 'axe.min.js'), 'utf8');
const BLOCK = '.serviceProductReviews';

const COMMUTER = {
  id: 'CMT-8',
  name: 'Commuter 8',
  url: 'https://trapper.example/bikes/commuter-8',
  sku: 'TB-CMT8',
  gtin: '8712345678906',
  brand: 'Trapper',
};
const FOLDING = { id: 'FLD-MINI', name: 'Folding Mini', url: 'https://trapper.example/bikes/folding-mini' };
/** A review text that would end a <script> element if the JSON-LD were not escaped or were written as HTML. */
const SCRIPT_TEXT = 'Great bike </script><script>window.__injected=1</script> really';

/** The Commuter's reviews: twelve (more than a page), two of them with one or two stars. */
const RATINGS = [5, 4, 5, 5, 4, 2, 5, 3, 5, 1, 4, 5];
const text = (rating: number, i: number) =>
  rating === 2
    ? 'Gears slipped twice in the first week.'
    : rating === 1
      ? 'Chain came off on day one.'
      : `Ride ${i + 1}: smooth and quiet.`;

async function operator(path: string, body: unknown): Promise<Response> {
  return fetch(`${service()}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${process.env.E2E_ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

const jsonLdOf = (product: string) =>
  fetch(`${service()}/webshops/${shopId()}/products/jsonld?product=${encodeURIComponent(product)}`);

test.beforeAll(async () => {
  // Seeded once (a retry runs this again): the demo shop's product reviews, dated long ago so that the shop's own
  // newest reviews, which other specs look at, stay first.
  if ((await jsonLdOf(COMMUTER.id)).ok) return;
  const reviews = [
    ...RATINGS.map((rating, i) => ({ product: COMMUTER, rating, content: i === 0 ? SCRIPT_TEXT : text(rating, i) })),
    { product: FOLDING, rating: 4, content: 'Folds fast, fits under my desk.' },
    { product: FOLDING, rating: 5, content: 'Light enough for the train stairs.' },
  ];
  for (const [i, { product, rating, content }] of reviews.entries()) {
    const res = await operator(`/admin/api/webshops/${shopId()}/reviews`, {
      name: `Rider ${i + 1}`,
      email: `rider${i + 1}@example.com`,
      rating,
      comment: 'Good shop.',
      country: 'NL',
      language: 'en',
      created: new Date(Date.now() - (800 + i) * 86_400_000).toISOString(),
      products: [{ ...product, rating, content }],
    });
    if (!res.ok) throw new Error(`seeding product reviews: ${res.status} ${await res.text()}`);
  }
});

/** Sums the layout shifts of the page from its start (none right after an input: those are expected). */
async function watchLayoutShift(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __cls: number };
    w.__cls = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
        if (!entry.hadRecentInput) w.__cls += entry.value;
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

async function layoutShift(page: Page): Promise<number> {
  // Two frames, so that a shift of the last change has been reported.
  return page.evaluate(
    () =>
      new Promise<number>((ok) =>
        requestAnimationFrame(() => requestAnimationFrame(() => ok((window as unknown as { __cls: number }).__cls))),
      ),
  );
}

/** Opens a host page and waits for every block of it to be filled (or marked empty). */
async function openProductPage(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await expect
    .poll(() =>
      page.evaluate(
        (selector) =>
          [...document.querySelectorAll(selector)].every(
            (el) => el.hasAttribute('data-empty') || el.shadowRoot?.querySelector('section.pr'),
          ),
        BLOCK,
      ),
    )
    .toBe(true);
}

const jsonLdScripts = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('script[type="application/ld+json"]')].map((s) => ({
      inHead: s.parentElement === document.head,
      text: s.textContent ?? '',
    })),
  );

/** The element focused inside the block's shadow root. */
const focusedInBlock = (page: Page) =>
  page.evaluate((selector) => {
    const el = document.querySelector(selector)?.shadowRoot?.activeElement;
    return el ? { tag: el.tagName, text: (el.textContent ?? '').trim() } : null;
  }, BLOCK);

async function expectAccessible(page: Page, what: string): Promise<void> {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.addScriptTag({ content: AXE });
  const violations = await page.evaluate(async (selector) => {
    type Result = { violations: { id: string; impact: string; help: string; nodes: { target: unknown }[] }[] };
    const axe = (window as unknown as { axe: { run(ctx: unknown, opts: unknown): Promise<Result> } }).axe;
    const result = await axe.run({ include: [[selector]] }, { resultTypes: ['violations'] });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}): ${v.help} at ${JSON.stringify(v.nodes.map((n) => n.target))}`);
  }, BLOCK);
  expect(violations, what).toEqual([]);
}

test.describe('the product block on a product page of another site', () => {
  test('fills the block without layout shift and adds the JSON-LD to <head> once, also when the loader runs again', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await watchLayoutShift(page);
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    // The page names the product by its SKU: the block resolves it like the product's own id.
    await openProductPage(page, hostUrl('product.html', { product: COMMUTER.sku, sidebar: false }));
    const section = page.locator(`${BLOCK} section.pr`);
    await expect(section).toHaveAttribute('data-count', String(RATINGS.length));
    await expect(section).toHaveAttribute('data-average', /^4\.\d$/);
    await expect(page.locator(BLOCK)).toContainText('Ride 2: smooth and quiet.');
    await expect(page.locator(BLOCK)).not.toHaveAttribute('data-empty');

    await expect.poll(() => jsonLdScripts(page)).toHaveLength(1);
    const [script] = await jsonLdScripts(page);
    expect(script!.inHead).toBe(true);
    // The review's text stays text: the server's escapes are kept, nothing ran.
    expect(script!.text).not.toContain('</script');
    expect(await page.evaluate(() => (window as unknown as { __injected?: number }).__injected)).toBeUndefined();
    const ld = JSON.parse(script!.text) as {
      '@type': string;
      '@id': string;
      name: string;
      aggregateRating: { ratingValue: number; reviewCount: number; bestRating: number; worstRating: number };
      review: { reviewBody: string }[];
    };
    expect(ld['@type']).toBe('Product');
    expect(ld['@id']).toBe(COMMUTER.url);
    expect(ld.name).toBe(COMMUTER.name);
    expect(ld.aggregateRating).toMatchObject({ reviewCount: RATINGS.length, bestRating: 5, worstRating: 1 });
    expect(ld.aggregateRating.ratingValue).toBeCloseTo(RATINGS.reduce((a, b) => a + b) / RATINGS.length, 1);
    expect(ld.review.map((r) => r.reviewBody)).toContain(SCRIPT_TEXT);

    expect(await layoutShift(page)).toBe(0);

    // The loader included a second time (a tag manager, a single-page app): nothing is added twice. (Its block
    // finds the element taken: counted here, to know when it has run.)
    await page.evaluate((selector) => {
      const w = window as unknown as { __claims: number };
      w.__claims = 0;
      const native = Element.prototype.attachShadow;
      Element.prototype.attachShadow = function (init) {
        if (this.matches(selector)) w.__claims++;
        return native.call(this, init);
      };
    }, BLOCK);
    await page.addScriptTag({ url: `${service()}/sidebar.js?id=${shopId()}&c=again` });
    await expect.poll(() => page.evaluate(() => (window as unknown as { __claims: number }).__claims)).toBe(1);
    expect(await layoutShift(page)).toBe(0);
    expect(await jsonLdScripts(page)).toHaveLength(1);
    expect(requests.filter((u) => u.includes('/products/jsonld'))).toHaveLength(1);
    expect(requests.filter((u) => u.includes('/products/reviews.html'))).toHaveLength(1);
    // Only our own service was asked for anything besides the shop's page.
    expect(requests.filter((u) => !u.startsWith(service()) && !u.startsWith(hostUrl('')))).toEqual([]);
  });

  test('pages and filters by stars with the keyboard, focusing the block (its heading) and announcing the page', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await openProductPage(page, hostUrl('product.html', { product: COMMUTER.id, sidebar: false, language: 'eng' }));
    const section = page.locator(`${BLOCK} section.pr`);
    // The block's own polite live region (after the fragment, which may have a status of its own).
    const announced = page.locator(`${BLOCK} [role=status]`).last();
    const pages = Number(await section.getAttribute('data-pages'));
    expect(pages).toBeGreaterThan(1);
    await expect(section).toHaveAttribute('data-page', '1');

    const next = page.locator(`${BLOCK} a[data-query*="page=2"]`).first();
    await next.focus();
    await page.keyboard.press('Enter');
    await expect(section).toHaveAttribute('data-page', '2');
    await expect.poll(async () => (await focusedInBlock(page))?.tag).toMatch(/^(H[1-6]|SECTION)$/);
    await expect(announced).toHaveText(`Reviews of Commuter 8. Page 2 of ${pages}`);
    // The shop's page did not navigate.
    expect(page.url()).toContain('/product.html');

    // The star filter: one and two stars, chosen and sent with the keyboard.
    const form = page.locator(`${BLOCK} form[data-product-filter]`);
    for (const stars of ['1', '2']) {
      await form.locator(`input[name="stars"][value="${stars}"]`).focus();
      await page.keyboard.press('Space');
    }
    await form.locator('button[type="submit"], button:not([type]), input[type="submit"]').first().focus();
    await page.keyboard.press('Enter');
    await expect(page.locator(BLOCK)).toContainText('Chain came off on day one.');
    await expect(page.locator(BLOCK)).toContainText('Gears slipped twice in the first week.');
    await expect(page.locator(BLOCK)).not.toContainText('smooth and quiet');
    await expect(section).toHaveAttribute('data-page', '1');
    await expect.poll(async () => (await focusedInBlock(page))?.tag).toMatch(/^(H[1-6]|SECTION)$/);
    await expect(announced).toContainText('Page 1 of 1');

    // And back to all reviews.
    const reset = page.locator(`${BLOCK} a[data-query=""]`).first();
    await reset.focus();
    await page.keyboard.press('Enter');
    await expect(page.locator(BLOCK)).toContainText('smooth and quiet');
  });

  test('sends a "Helpful" vote from the shop\'s page once per browser and shows it', async ({ page }) => {
    const url = hostUrl('product.html', { product: COMMUTER.id, sidebar: false, language: 'eng' });
    await openProductPage(page, url);
    const button = page.locator(`${BLOCK} button[data-helpful]`).first();
    const id = await button.getAttribute('data-helpful');
    const before = Number(/\((\d+)\)/.exec((await button.textContent()) ?? '')![1]);
    await button.focus();
    await page.keyboard.press('Enter');
    await expect(button).toHaveAttribute('aria-pressed', 'true');
    await expect(button).toHaveText(`Helpful (${before + 1})`);
    // The next visit of this browser shows the vote, and does not send it again. (A vote is sent within the click's
    // own handler: the calls to fetch are recorded as they are made.)
    await openProductPage(page, url);
    const again = page.locator(`${BLOCK} button[data-helpful="${id}"]`);
    await expect(again).toHaveAttribute('aria-pressed', 'true');
    await page.evaluate(() => {
      const w = window as unknown as { __calls: string[] };
      const native = window.fetch;
      w.__calls = [];
      window.fetch = (input, init) => {
        w.__calls.push(String(input));
        return native(input, init);
      };
    });
    await again.click();
    expect(await page.evaluate(() => (window as unknown as { __calls: string[] }).__calls)).toEqual([]);
  });

  test('fills one block per product on a page of several products, and adds no JSON-LD there', async ({ page }) => {
    await openProductPage(page, hostUrl('products.html', { sidebar: false }));
    const blocks = page.locator(`${BLOCK} section.pr`);
    await expect(blocks).toHaveCount(2);
    await expect(blocks.nth(0)).toHaveAttribute('data-count', String(RATINGS.length));
    await expect(blocks.nth(1)).toHaveAttribute('data-count', '2');
    await expect(page.locator(BLOCK).nth(1)).toContainText('Folds fast, fits under my desk.');
    expect(await jsonLdScripts(page)).toEqual([]);
  });

  test('shows the empty state for a product without reviews, which the shop hides, and adds nothing to <head>', async ({
    page,
  }) => {
    const requests: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    await openProductPage(page, hostUrl('product.html', { product: 'NO-REVIEWS-YET', sidebar: false }));
    const block = page.locator(BLOCK);
    await expect(block).toHaveAttribute('data-empty', '');
    await expect(page.locator(`${BLOCK} section.pr--empty`)).toHaveAttribute('data-count', '0');
    // The shop's stylesheet hides it (`.serviceProductReviews[data-empty]{display:none}`).
    await expect(block).toBeHidden();
    expect(await jsonLdScripts(page)).toEqual([]);
    expect(requests.filter((u) => u.includes('/products/jsonld'))).toEqual([]);
    expect((await jsonLdOf('NO-REVIEWS-YET')).status).toBe(404);
  });

  for (const theme of ['dark', 'light'] as const) {
    for (const width of [1280, 390]) {
      test(`fills without layout shift and has no serious or critical axe-core violation at ${width} px in the ${theme} theme`, async ({
        page,
      }) => {
        await page.setViewportSize({ width, height: 900 });
        await watchLayoutShift(page);
        await openProductPage(
          page,
          hostUrl('product.html', { product: COMMUTER.id, sidebar_theme: theme, mobile: 'none' }),
        );
        await expect(page.locator(`${BLOCK} section.pr`)).toHaveAttribute('data-count', String(RATINGS.length));
        await expect(page.locator(`${BLOCK} section.pr`)).toHaveAttribute('data-theme', theme);
        // The reserved height holds at a phone's width too, where the block's text wraps onto more lines.
        expect(await layoutShift(page)).toBe(0);
        await expectAccessible(page, `product block, ${theme}, ${width} px`);
      });
    }
  }
});
