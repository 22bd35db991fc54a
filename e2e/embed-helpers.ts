// Shared by the embed specs: the demo shop pages on 127.0.0.2 (e2e/hosts/server.ts), the service on 127.0.0.1,
// axe-core on the embed, and screenshots.
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type Locator, type Page } from '@playwright/test';

export const host = () => process.env.HOST_BASE!;
export const service = () => process.env.WIDGET_BASE!;
export const shopId = () => process.env.EMBED_SHOP!;
export const apiCode = () => process.env.EMBED_CODE!;

/** A demo page with page globals (`{ sidebar_theme: 'light' }` → `_service_sidebar_theme=light`) and other parameters. */
export function hostUrl(
  page: string,
  globals: Record<string, string | boolean> = {},
  extra: Record<string, string> = {},
): string {
  const q = new URLSearchParams(extra);
  for (const [name, value] of Object.entries(globals)) q.set(`_service_${name}`, String(value));
  const query = q.toString();
  return `${host()}/${page}${query ? `?${query}` : ''}`;
}

/** Loads a page and waits for the embed to have rendered (its shadow host holds the app). */
export async function open(page: Page, url: string, { waitFor = '.t' }: { waitFor?: string } = {}): Promise<void> {
  await page.goto(url);
  await page.locator(waitFor).first().waitFor({ state: 'attached', timeout: 10_000 });
}

/** Every request of the page, to check that the embed talks to nothing but its own service. */
export function recordRequests(page: Page): string[] {
  const urls: string[] = [];
  page.on('request', (r) => urls.push(r.url()));
  return urls;
}

const AXE = readFileSync(join('node_modules', 'axe-core', 'axe.min.js'), 'utf8');

/** axe-core on the embed only (the demo shop's own page is not ours): no serious or critical violation. */
export async function expectAccessible(page: Page, what: string): Promise<void> {
  // A dialog fades in (unless reduced motion is asked for), and may fade in again when its content arrives:
  // measuring contrast mid-fade judges a frame that no one reads. Asking for reduced motion removes the fade; the
  // colours measured are the same.
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.addScriptTag({ content: AXE });
  const violations = await page.evaluate(async () => {
    type Result = { violations: { id: string; impact: string; help: string; nodes: { target: unknown }[] }[] };
    const axe = (window as unknown as { axe: { run(ctx: unknown, opts: unknown): Promise<Result> } }).axe;
    const result = await axe.run({ include: [['[data-service-embed]']] }, { resultTypes: ['violations'] });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}): ${v.help} at ${JSON.stringify(v.nodes.map((n) => n.target))}`);
  });
  expect(violations, what).toEqual([]);
}

/** The element that has focus, looking into shadow roots: its class and text. */
export async function focused(page: Page): Promise<{ inDialog: boolean; text: string; cls: string }> {
  return page.evaluate(() => {
    let el = document.activeElement as Element | null;
    while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
    return {
      inDialog: !!el?.closest('dialog'),
      text: (el?.textContent ?? '').trim(),
      cls: el?.getAttribute('class') ?? '',
    };
  });
}

const SHOTS = join('test-results', 'embed-screenshots');
/** The few the README shows. */
const FOR_README = new Set([
  'sidebar-dark',
  'sidebar-light',
  'tooltip-dark',
  'popup-shop-dark',
  'popup-reviews-light',
  'popup-add-review-light',
  'consent-light',
  'review-form-light',
  'mobile-top_bar-dark',
  'mobile-popup-dark',
]);

/**
 * Saves a screenshot as a test artifact (test-results/embed-screenshots/); with UPDATE_DOCS_SCREENSHOTS=1 the ones
 * the README shows also into docs/screenshots/.
 */
export async function screenshot(target: Page | Locator, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  const path = join(SHOTS, `${name}.png`);
  await target.screenshot({ path, animations: 'disabled' });
  if (process.env.UPDATE_DOCS_SCREENSHOTS === '1' && FOR_README.has(name)) {
    mkdirSync(join('docs', 'screenshots'), { recursive: true });
    copyFileSync(path, join('docs', 'screenshots', `${name}.png`));
  }
}

/** The REST API's answer for an order, as the shop's back end asks it. */
export async function hasConsent(orderNumber: string): Promise<boolean> {
  const q = new URLSearchParams({ id: shopId(), code: apiCode(), orderNumber });
  const res = await fetch(`${service()}/api/2.0/order_permissions.json?${q}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { has_consent: boolean }).has_consent;
}

export const uniqueOrder = (label: string) =>
  `${label}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}`;

/** The shop's published review count now (other specs add reviews). */
export async function reviewCount(): Promise<number> {
  const res = await fetch(`${service()}/embed/${shopId()}/shop.json`);
  return ((await res.json()) as { count: number }).count;
}
