// The review parts both surfaces share: what a writer or a shop typed stays text in every place it lands (element
// text, attribute values, the photo links), and each surface's differences come out as it asked.
import { h } from 'preact';
import { renderToString } from 'preact-render-to-string';
import { describe, expect, it } from 'vitest';
import { OriginBadges, Reply, ReviewPhotos, type ReviewLook } from './parts.js';

const LOOK: ReviewLook = {
  stars: 's',
  off: 'o',
  badge: 'b',
  sr: 'sr',
  photos: 'ph',
  reply: 'r',
  text: 't',
};
const HOSTILE = `"><script>alert(1)</script><img src=x onerror=alert(2)>`;
const photo = {
  url: 'https://reviews.example/photos/a.webp?x=1&y="2"',
  thumb_url: 'https://reviews.example/photos/a-320.webp',
  width: 1600,
  height: 1200,
  alt: HOSTILE,
};

/** Every tag the markup opens: a typed `<script>` or `<img onerror>` would show up here. */
const tags = (html: string) => [...html.matchAll(/<(\w+)(?:[^">]|"[^"]*")*>/g)].map((m) => m[1]);

describe('review parts', () => {
  it('keep typed text out of the markup: names, alternative texts, the reply, an imported platform', () => {
    const html = renderToString(
      h('div', null, [
        h(ReviewPhotos, { photos: [photo], owner: HOSTILE, lang: 'en', opens: 'tab', look: LOOK }),
        h(Reply, { from: `Reply from ${HOSTILE}`, text: HOSTILE, heading: null, look: LOOK }),
        h(OriginBadges, {
          review: { origin: 'imported', incentivised: false, imported_from: HOSTILE },
          lang: 'en',
          look: LOOK,
        }),
      ]),
    );
    expect(tags(html)).toEqual(['div', 'ul', 'li', 'a', 'img', 'div', 'p', 'strong', 'p', 'span', 'span']);
    expect(html).toContain('href="https://reviews.example/photos/a.webp?x=1&amp;y=&quot;2&quot;"');
    expect(html).toContain('&lt;script>alert(1)&lt;/script>');
  });

  it('open photos in a new tab on the fragment, and in the page dialog with its size on the page', () => {
    const tab = renderToString(
      h(ReviewPhotos, { photos: [photo], owner: 'Ann', lang: 'en', opens: 'tab', look: LOOK }),
    );
    expect(tab).toContain('target="_blank" rel="noopener"');
    expect(tab).toMatch(/aria-label="[^"]* \(opens in a new tab\)"/);
    expect(tab).not.toContain('data-width');

    const dialog = renderToString(
      h(ReviewPhotos, { photos: [photo], owner: 'Ann', lang: 'en', opens: 'dialog', look: LOOK }),
    );
    expect(dialog).not.toContain('target=');
    expect(dialog).toContain('data-width="1600" data-height="1200"');
    // No thumbnail size given: the large photo's shape at 320 px, so the page does not shift as it loads.
    expect(dialog).toContain('width="320" height="240"');
  });

  it('give the reply the heading level the surface asks for', () => {
    expect(renderToString(h(Reply, { from: 'Reply from Shop', text: 'Thanks', heading: 'h4', look: LOOK }))).toBe(
      '<div class="r"><h4>Reply from Shop</h4><p class="t">Thanks</p></div>',
    );
    expect(renderToString(h(Reply, { from: 'Reply from Shop', text: 'Thanks', heading: null, look: LOOK }))).toBe(
      '<div class="r"><p><strong>Reply from Shop</strong></p><p class="t">Thanks</p></div>',
    );
  });
});
