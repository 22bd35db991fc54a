// The widget in Chromium, framed by a merchant's page on another site (127.0.0.2), as on a real shop.
import { existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test, expect, type Frame, type Page } from '@playwright/test';
import { LAYOUTS, LAYOUT_INFO, recommendedHeight, type Layout } from '../widget/layouts.js';
import { STRINGS } from '../widget/strings.js';

const base = () => process.env.WIDGET_BASE!;
const shopId = () => process.env.WIDGET_SHOP!;
const SHOTS = join('test-results', 'widget-screenshots');
/** The screenshots of this run, also kept in memory: another run may clean test-results/ meanwhile. */
const shots = new Map<string, Buffer>();

async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  shots.set(name, await page.locator('#slot iframe').screenshot({ path: join(SHOTS, `${name}.png`) }));
}
test.use({ viewport: { width: 1280, height: 1100 } });

const AXE = readFileSync(join('node_modules', 'axe-core', 'axe.min.js'), 'utf8');

interface Embed {
  layout: Layout;
  theme?: 'light' | 'dark';
  view?: 'slider' | 'list';
  show?: 'yes' | 'no';
  amount?: number;
  interval?: number;
  width?: number;
  height?: number;
}

/** The documented size: the layout's manual width and its recommended height for the options. */
function sizeOf(e: Embed): { width: number; height: number } {
  const height =
    e.height ?? recommendedHeight(e.layout, { show: e.show !== 'no', view: e.view ?? 'slider', amount: e.amount ?? 3 });
  return { width: e.width ?? LAYOUT_INFO[e.layout].width, height };
}

function widgetUrl(e: Embed): string {
  const { width, height } = sizeOf(e);
  const q = new URLSearchParams({ id: shopId(), layout: e.layout, theme: e.theme ?? 'light', language: 'eng' });
  if (e.view) q.set('view', e.view);
  if (e.show) q.set('show', e.show);
  if (e.amount) q.set('amount', String(e.amount));
  if (e.interval) q.set('interval', String(e.interval));
  q.set('width', 'manual');
  q.set('width_amount', `${width}px`);
  q.set('height', String(height));
  return `${base()}/webshops/widget_html?${q}`;
}

/** Opens the merchant's page with the snippet in it and returns the widget's frame once it has loaded. */
async function openOnMerchantPage(page: Page, snippet: string): Promise<Frame> {
  await page.goto(`${process.env.MERCHANT_BASE}/?html=${encodeURIComponent(snippet)}`);
  const element = await page.waitForSelector('#slot iframe');
  const frame = await element.contentFrame();
  await frame!.waitForLoadState('load');
  return frame!;
}

async function embed(page: Page, e: Embed): Promise<Frame> {
  const { width, height } = sizeOf(e);
  return openOnMerchantPage(
    page,
    `<iframe src="${widgetUrl(e).replace(/&/g, '&amp;')}" width="${width}" height="${height}" title="Reviews" style="border:0"></iframe>`,
  );
}

/** Overflow of the document and of texts that must show whole (not in a clipped column or another slide). */
async function overflow(frame: Frame) {
  return frame.evaluate(() => {
    const problems: string[] = [];
    const root = document.documentElement;
    if (root.scrollHeight !== root.clientHeight)
      problems.push(`document height ${root.scrollHeight} ≠ ${root.clientHeight}`);
    if (root.scrollWidth !== root.clientWidth)
      problems.push(`document width ${root.scrollWidth} ≠ ${root.clientWidth}`);
    const vw = innerWidth;
    const vh = innerHeight;
    for (const el of document.querySelectorAll<HTMLElement>(
      '.rv, .sc, .big, .st, .chip, .seal, .t, .bb strong, .two, .hi p, .ct',
    )) {
      const box = el.getBoundingClientRect();
      // Reviews that do not fit a list flow into a clipped next column (or row); later slides wait to the right.
      const clip = el.closest('.vp, .rl')?.getBoundingClientRect() ?? { right: vw, bottom: vh };
      if (box.width === 0 || box.left >= clip.right - 1 || box.top >= clip.bottom - 1) continue;
      if (box.right > Math.min(vw, clip.right) + 0.5 || box.bottom > Math.min(vh, clip.bottom) + 0.5) {
        problems.push(`${el.className} cut at ${Math.round(box.right)},${Math.round(box.bottom)}`);
      }
      if (el.matches('.rv') && el.scrollHeight > el.clientHeight + 1)
        problems.push(`review ${el.scrollHeight} > ${el.clientHeight}`);
      // Issue 21: the experience date shows whole, at every documented width.
      const experience = el.matches('.rv') ? el.querySelector<HTMLElement>('.ex') : null;
      if (experience && experience.scrollWidth > experience.clientWidth + 1)
        problems.push(`experience date cut: ${experience.scrollWidth} > ${experience.clientWidth}`);
    }
    return problems;
  });
}

async function seriousViolations(frame: Frame) {
  await frame.evaluate(AXE);
  const results = await frame.evaluate(() =>
    (
      window as unknown as {
        axe: { run(): Promise<{ violations: { id: string; impact: string; nodes: { target: unknown }[] }[] }> };
      }
    ).axe.run(),
  );
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')}`);
}

test.describe('every layout on a merchant’s page', () => {
  for (const layout of LAYOUTS) {
    for (const theme of ['light', 'dark'] as const) {
      test(`${layout} (${theme}) fits its documented size without overflow`, async ({ page }) => {
        const violations: string[] = [];
        page.on('console', (m) => {
          if (/Content Security Policy|Refused/i.test(m.text())) violations.push(m.text());
        });
        const frame = await embed(page, { layout, theme });
        await frame.evaluate(() => document.fonts.ready);
        expect(await overflow(frame)).toEqual([]);
        expect(violations).toEqual([]);
        await screenshot(page, `${LAYOUTS.indexOf(layout)}-${layout}-${theme}`);
      });
    }
  }

  for (const e of [
    { layout: 'new_default', view: 'list', amount: 1 },
    { layout: 'new_default', view: 'list', amount: 6 },
    { layout: 'new_default', show: 'no' },
    { layout: 'modern', view: 'list', amount: 6 },
    { layout: 'modern', show: 'no' },
    // Each layout at its narrowest documented width.
    ...LAYOUTS.map((layout) => ({ layout, width: LAYOUT_INFO[layout].minWidth })),
  ] as Embed[]) {
    test(`${JSON.stringify(e)} fits without overflow`, async ({ page }) => {
      const frame = await embed(page, e);
      expect(await overflow(frame)).toEqual([]);
      if (e.show === 'no' || e.view === 'list') {
        await screenshot(
          page,
          `${LAYOUTS.indexOf(e.layout)}-${e.layout}-${e.show === 'no' ? 'score-only' : `list-${e.amount}`}`,
        );
      }
    });
  }
});

test.describe('origin labels and the policy link (issue 11)', () => {
  for (const layout of LAYOUTS) {
    for (const theme of ['light', 'dark'] as const) {
      test(`${layout} (${theme}) links to the policy page, and labels its reviews`, async ({ page }) => {
        const frame = await embed(page, { layout, theme, view: 'list', amount: 2 });
        const policy = frame.getByRole('link', { name: /How reviews are checked/ });
        await expect(policy).toBeVisible();
        await expect(policy).toHaveAttribute('href', new RegExp(`/webshops/${shopId()}/policy\\?lang=en$`));
        if (LAYOUT_INFO[layout].lists) {
          // Each review says how it was checked, with its meaning for screen readers, and can be reported. Which
          // reviews are newest depends on the specs that ran before (the invitation flow writes a verified one); the
          // seeded ones are imports. Which label each origin gets is checked per layout in server/widget/labels.test.ts.
          const en = STRINGS.en;
          const meanings: Record<string, string> = {
            [en.verifiedOrder]: ` (${en.verifiedOrderInfo})`,
            [en.emailConfirmed]: ` (${en.emailConfirmedInfo})`,
            [en.imported]: ` (${en.importedInfo})`,
          };
          const reviews = frame.locator('.rv');
          expect(await reviews.count()).toBeGreaterThan(0);
          for (const review of await reviews.all()) {
            // biome-ignore lint/performance/useDomNodeTextContent: the label as rendered (CSS applied) is what is checked
            const label = (await review.locator('.lb').innerText()).trim();
            const origin = Object.keys(meanings).find((name) => label.startsWith(name));
            expect(origin, `origin label of "${label}"`).toBeDefined();
            await expect(review.locator('.lb .sr').first()).toHaveText(meanings[origin!]!);
            await expect(review.getByRole('link', { name: /^Report\b.*review by / })).toHaveAttribute(
              'href',
              /\/reviews\/\d+\/report$/,
            );
            // Issue 21: the experience's month on a line of its own under the review's date (overflow() checks it whole).
            await expect(review.locator('.ex time')).toBeVisible();
            await expect(review.locator('.ex time')).toHaveText(/^Experience: [A-Z][a-z]+ \d{4}$/);
          }
        }
        expect(await overflow(frame)).toEqual([]);
        expect(await seriousViolations(frame)).toEqual([]);
      });
    }
  }
});

test.describe('slider', () => {
  const current = (frame: Frame) => frame.locator('[data-slider]').getAttribute('data-index');

  test('advances after interval and stops while hovered', async ({ page }) => {
    const frame = await embed(page, { layout: 'new_default', interval: 1000 });
    // The pointer starts away from the slider (a pointer resting on it pauses it, by design).
    await page.mouse.move(5, 5);
    expect(await current(frame)).toBe('0');
    await expect.poll(() => current(frame), { timeout: 3000 }).toBe('1');
    await frame.locator('[data-slider]').hover();
    const held = await current(frame);
    await page.waitForTimeout(2500);
    expect(await current(frame)).toBe(held);
    await page.mouse.move(5, 5, { steps: 5 });
    await expect.poll(() => current(frame), { timeout: 3000 }).not.toBe(held);
  });

  test('pauses with the button and while focused, and is moved by the arrows', async ({ page }) => {
    const frame = await embed(page, { layout: 'modern', interval: 1000 });
    await frame.getByRole('button', { name: 'Next review' }).click();
    expect(await current(frame)).toBe('1');
    // Focus is inside the slider: it does not move on its own.
    await page.waitForTimeout(2000);
    expect(await current(frame)).toBe('1');
    await frame.getByRole('button', { name: 'Pause' }).click();
    await expect(frame.getByRole('button', { name: 'Play' })).toBeVisible();
    await frame.getByRole('button', { name: 'Previous review' }).click();
    expect(await current(frame)).toBe('0');
  });

  test('does not move under prefers-reduced-motion', async ({ browser }) => {
    const context = await browser.newContext({ reducedMotion: 'reduce' });
    const page = await context.newPage();
    const frame = await embed(page, { layout: 'new_default', interval: 1000 });
    await page.waitForTimeout(2500);
    expect(await current(frame)).toBe('0');
    await expect(frame.getByRole('button', { name: 'Play' })).toBeVisible();
    await context.close();
  });

  test('shows the first review without JavaScript', async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    const frame = await embed(page, { layout: 'new_default' });
    await expect(frame.locator('.tr > .rv').first()).toBeInViewport();
    await expect(frame.locator('.ct')).toBeHidden();
    expect(await overflow(frame)).toEqual([]);
    await context.close();
  });
});

test.describe('accessibility (axe-core)', () => {
  for (const layout of LAYOUTS) {
    test(`${layout} has no serious or critical violation in either theme`, async ({ page }) => {
      for (const theme of ['light', 'dark'] as const) {
        const frame = await embed(page, { layout, theme });
        expect(await seriousViolations(frame), theme).toEqual([]);
      }
    });
  }

  test('the list view and the configurator have none either', async ({ page }) => {
    expect(await seriousViolations(await embed(page, { layout: 'new_default', view: 'list', amount: 6 }))).toEqual([]);
    await page.goto(`${base()}/webshops/widget?id=${shopId()}`);
    expect(await seriousViolations(page.mainFrame())).toEqual([]);
  });
});

test.describe('configurator', () => {
  test('works with the keyboard alone, and its copied snippet renders the same widget', async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base() });
    await page.goto(`${base()}/webshops/widget?id=${shopId()}`);
    const focusOn = async (id: string) => {
      for (let i = 0; i < 40; i++) {
        if ((await page.evaluate(() => document.activeElement?.id)) === id) return;
        await page.keyboard.press('Tab');
      }
      throw new Error(`could not reach #${id} with Tab`);
    };
    await focusOn('f-layout');
    await page.keyboard.press('ArrowDown'); // new_badges
    await expect(page.locator('#f-layout')).toHaveValue('new_badges');
    // Fields that do not apply to a badge are hidden; those that do are shown.
    await expect(page.locator('#f-amount')).toBeHidden();
    await expect(page.locator('#f-color')).toBeVisible();
    await focusOn('copy');
    await page.keyboard.press('Enter');
    await expect(page.locator('#copied')).toHaveText('Copied.');
    const snippet = await page.evaluate(() => navigator.clipboard.readText());
    expect(snippet).toMatch(
      /^<iframe src="http:\/\/127\.0\.0\.1:\d+\/webshops\/widget_html\?id=\d+&amp;layout=new_badges&amp;/,
    );
    expect(snippet).toContain(' height="150" ');
    expect(snippet).toContain(' title="Beoordelingen van Fietsenwinkel De Trapper" loading="lazy"');

    // The preview follows the form after a short pause; then the same widget must appear on the merchant's page.
    await expect.poll(() => page.locator('#preview').getAttribute('src')).toContain('layout=new_badges');
    const preview = await (await page.waitForSelector('#preview')).contentFrame();
    await preview!.waitForLoadState('load');
    await expect(preview!.locator('.seal')).toBeVisible();
    const previewHtml = await preview!.content();
    const frame = await openOnMerchantPage(page, snippet);
    expect(await frame.content()).toBe(previewHtml);
    const box = await page.locator('#slot iframe').boundingBox();
    expect(box?.height).toBe(150);
  });
});

test.describe('configurator photos option', () => {
  test('ticked with the keyboard: the documented height is proposed, the snippet and the preview ask for photos', async ({
    page,
  }) => {
    await page.goto(`${base()}/webshops/widget?id=${shopId()}&layout=new_default&view=list&amount=3`);
    const height = page.locator('#f-height');
    await expect(height).toHaveValue(String(recommendedHeight('new_default', { show: true, view: 'list', amount: 3 })));
    const box = page.getByRole('checkbox', { name: 'Show reviews’ photos' });
    await box.focus();
    await page.keyboard.press('Space');
    await expect(box).toBeChecked();
    const withPhotos = recommendedHeight('new_default', { show: true, view: 'list', amount: 3, photos: true });
    await expect(height).toHaveValue(String(withPhotos));
    await expect(page.locator('#snippet')).toHaveValue(
      new RegExp(`amount=3&amp;photos=yes&amp;width=auto&amp;height=${withPhotos}&amp;.* height="${withPhotos}" `),
    );
    await expect.poll(() => page.locator('#preview').getAttribute('src')).toContain('photos=yes');
    // A layout that lists no reviews takes no photos: the option goes, and so does the parameter.
    await page.locator('#f-layout').selectOption('new_badges');
    await expect(box).toBeHidden();
    await expect(page.locator('#snippet')).not.toHaveValue(/photos=/);
  });
});

test('contact sheet of every layout', async ({ page }) => {
  test.skip(shots.size === 0 && !existsSync(SHOTS), 'the layout tests did not run: no screenshots to put on the sheet');
  if (shots.size === 0) {
    for (const file of readdirSync(SHOTS).filter((f) => f.endsWith('.png')))
      shots.set(file.slice(0, -4), readFileSync(join(SHOTS, file)));
  }
  const names = [...shots.keys()].sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
  expect(names.length).toBeGreaterThanOrEqual(LAYOUTS.length * 2);
  const figures = names
    .map((name) => {
      const label = name.replace(/^\d+-/, '');
      const data = shots.get(name)!.toString('base64');
      return `<figure><img src="data:image/png;base64,${data}" alt=""><figcaption>${label}</figcaption></figure>`;
    })
    .join('');
  await page.setViewportSize({ width: 1440, height: 800 });
  await page.setContent(
    '<style>body{margin:0;padding:16px;background:#e9e6df;font:13px system-ui,sans-serif;display:flex;flex-wrap:wrap;gap:16px;align-items:flex-start}' +
      'figure{margin:0}figcaption{margin-top:4px;color:#333}img{display:block;box-shadow:0 0 0 1px #c9c4b8}</style>' +
      figures,
  );
  mkdirSync('docs', { recursive: true });
  await page.screenshot({ path: join('docs', 'widget-contact-sheet.png'), fullPage: true });
});
