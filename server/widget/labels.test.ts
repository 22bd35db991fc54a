// Issue 11 in the widget: each review says how it was checked (with what that means, for screen readers) and has
// its report link; every layout links to the shop's review policy page. In both themes and all seven languages.
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../languages.js';
import { parseWidgetQuery, widgetOptions } from './params.js';
import type { WidgetData, WidgetReview } from '../../widget/components.js';
import { LAYOUTS, LAYOUT_INFO } from '../../widget/layouts.js';
import { renderWidgetPage } from '../../widget/page.js';
import { renderRichSnippet } from '../../widget/rich-snippet.js';
import { STRINGS } from '../../widget/strings.js';

const review = (id: number, extra: Partial<WidgetReview>): WidgetReview => ({
  id,
  name: `Writer ${id}`,
  rating: 5,
  comment: 'Fine',
  date: new Date(Date.UTC(2025, 0, id)),
  reply: null,
  ...extra,
});

const data: WidgetData = {
  shopName: 'Fiets & Co',
  pageUrl: 'https://reviews.example/webshops/7',
  policyUrl: 'https://reviews.example/webshops/7/policy?lang=en',
  serviceUrl: 'https://reviews.example',
  brandName: 'Service',
  score: 9,
  count: 4,
  reviews: [
    review(1, { origin: 'verified_order' }),
    review(2, { origin: 'email_confirmed', incentivised: true }),
    review(3, { origin: 'imported', importedFrom: '<b>Kiyoh</b>' }),
    // From a cache written before origins existed.
    review(4, {}),
  ],
};

function page(query: Record<string, string>, language = 'en') {
  const options = widgetOptions(parseWidgetQuery({ id: '7', amount: '4', language, ...query }), {
    heroColor: '',
    mainLanguage: 'en',
    enabledLanguages: [...LANGUAGES],
  });
  return renderWidgetPage(options, data).html;
}

describe('origin labels and report links on each review', () => {
  for (const layout of LAYOUTS.filter((l) => LAYOUT_INFO[l].lists)) {
    for (const theme of ['light', 'dark']) {
      it(`${layout}, ${theme} theme`, () => {
        const html = page({ layout, theme, view: 'list' });
        expect(html).toContain('Verified order<span class="sr"> (the order was proven)</span>');
        expect(html).toContain('E-mail confirmed<span class="sr"> (the address was confirmed, not a purchase)</span>');
        expect(html).toContain('Incentivised<span class="sr"> (the writer was offered something for a review)</span>');
        // The platform's name is the operator's text: escaped.
        expect(html).toContain('Imported from &lt;b>Kiyoh&lt;/b>');
        // Without an origin (older cache) a review claims nothing more than an e-mail confirmation.
        expect(html.match(/E-mail confirmed</g)).toHaveLength(2);
        for (const id of [1, 2, 3, 4]) {
          expect(html).toContain(
            `<a href="https://reviews.example/reviews/${id}/report" target="_blank" rel="noopener nofollow">Report<span class="sr">: review by Writer ${id} (opens in a new tab)</span></a>`,
          );
        }
      });
    }
  }

  it('has every label in every language', () => {
    for (const language of LANGUAGES) {
      const html = page({ layout: 'new_default', view: 'list' }, language);
      const t = STRINGS[language];
      for (const text of [t.verifiedOrder, t.emailConfirmed, t.incentivised, t.report, t.policy])
        expect(html).toContain(text);
      expect(html).toContain(t.importedFrom('&lt;b>Kiyoh&lt;/b>'));
    }
  });
});

describe('the policy link ("How reviews are checked")', () => {
  it.each([...LAYOUTS])('is in the %s layout, named, opening in a new tab', (layout) => {
    for (const theme of ['light', 'dark']) {
      const html = page({ layout, theme });
      // An "i" drawn by CSS in the corner (no room taken from the documented heights), named in words.
      expect(html).toContain(
        '<a class="pl" href="https://reviews.example/webshops/7/policy?lang=en" target="_blank" rel="noopener" title="How reviews are checked">' +
          '<span class="sr">How reviews are checked (opens in a new tab)</span></a>',
      );
      expect(html).toContain('.pl::before{content:"i"');
    }
  });

  it('is in the rich snippet’s link area', () => {
    const html = renderRichSnippet(
      { shopName: 'Fiets', pageUrl: data.pageUrl, policyUrl: data.policyUrl, score: 9, count: 4 },
      'nl',
    );
    expect(html).toContain(
      '<a href="https://reviews.example/webshops/7/policy?lang=en" target="_blank" rel="noopener">Zo worden reviews gecontroleerd</a>',
    );
  });
});
