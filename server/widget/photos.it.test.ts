// Issue 20: the list layouts show reviews' photos only when the snippet asks (`photos=yes`); every existing
// snippet keeps its page, height and policy.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.js';
import type { ReviewPhoto } from '../reviews/model.js';
import type { Webshop } from '../webshops/store.js';
import { newPhotoId } from '../photos/store.js';
import { recommendedHeight } from '../../widget/layouts.js';

let t: TestApp;
let shop: Webshop;
const shown = (alt: string): ReviewPhoto => ({
  id: newPhotoId(),
  state: 'shown',
  alt,
  width: 1600,
  height: 1200,
  thumbWidth: 320,
  thumbHeight: 240,
});
const photos = [shown('The lamp, switched on'), shown(''), { ...shown('held back'), state: 'held' as const }];
let reviewId = 0;

beforeAll(async () => {
  t = await startTestApp();
  shop = await t.createShop({ name: 'Lamp Shop' });
  const review = await t.services.reviews.create(shop.id, {
    name: 'Jane',
    email: 'jane@example.com',
    rating: 5,
    comment: 'Lovely lamp',
    language: 'en',
  });
  reviewId = review.id;
  await t.services.reviews.update(review.id, { photos });
});
afterAll(() => t.close());

const widget = async (query: Record<string, string>) => {
  const res = await t.fetch(`/webshops/widget_html?${new URLSearchParams({ id: String(shop.id), ...query })}`);
  return { res, html: await res.text() };
};

describe('widget photos (photos=yes)', () => {
  it.each(['new_default', 'modern'])(
    '%s: no photos, no image policy, same height without the parameter',
    async (layout) => {
      for (const view of ['list', 'slider']) {
        const { res, html } = await widget({ layout, view, language: 'eng' });
        expect(html).not.toContain('<img');
        expect(html).not.toContain('/photos/');
        expect(res.headers.get('content-security-policy')).not.toContain('img-src');
        const { html: no } = await widget({ layout, view, language: 'eng', photos: 'no' });
        expect(no).toBe(html);
      }
    },
  );

  it.each(['new_default', 'modern'])(
    '%s: thumbnails with their size that open the review in a new tab',
    async (layout) => {
      for (const view of ['list', 'slider']) {
        const { res, html } = await widget({ layout, view, language: 'eng', photos: 'yes' });
        expect(res.status).toBe(200);
        expect(res.headers.get('content-security-policy')).toContain("img-src 'self'");
        const imgs = [...html.matchAll(/<img [^>]*>/g)].map((m) => m[0]);
        // The held photo is not shown.
        expect(imgs).toHaveLength(2);
        for (const img of imgs) {
          expect(img).toMatch(/ width="56"/);
          expect(img).toMatch(/ height="56"/);
          expect(img).toMatch(/ src="\/photos\/[A-Za-z0-9_-]{22}-320\.webp"/);
          expect(img).toContain('loading="lazy"');
        }
        expect(imgs[0]).toContain('alt="The lamp, switched on (opens in a new tab)"');
        expect(imgs[1]).toContain('alt="Photo 2 of 2 by Jane (opens in a new tab)"');
        expect(html).toContain(
          `href="${t.services.config.baseUrl}/webshops/${shop.id}#review-${reviewId}" target="_blank" rel="noopener"><img`,
        );
      }
    },
  );

  it('grows the proposed height by a row of thumbnails, and leaves the other layouts alone', async () => {
    const list = { show: true, view: 'list' as const, amount: 3 };
    expect(recommendedHeight('new_default', { ...list, photos: true })).toBe(
      recommendedHeight('new_default', list) + 3 * 62,
    );
    expect(recommendedHeight('modern', { ...list, photos: true })).toBe(recommendedHeight('modern', list) + 62);
    const { html } = await widget({ layout: 'new_badges', photos: 'yes' });
    expect(html).not.toContain('<img');
    const bad = await widget({ layout: 'modern', photos: 'maybe' });
    expect(bad.res.status).toBe(400);
    expect(bad.html).toContain('The parameter photos must be yes or no.');
  });
});
