// Issue 21 in the widget: the layouts that list reviews show each review's experience date ("Experience: March
// 2026") beside its date, in the widget's language; the fixed-size buttons and badges do not.
import { describe, expect, it } from 'vitest';
import type { WidgetData } from '../../widget/components.js';
import { LAYOUTS, LAYOUT_INFO } from '../../widget/layouts.js';
import { renderWidgetPage } from '../../widget/page.js';
import { LANGUAGES } from '../languages.js';
import { parseWidgetQuery, widgetOptions } from './params.js';

const data: WidgetData = {
  shopName: 'Fiets & Co',
  pageUrl: 'https://reviews.example/webshops/7',
  policyUrl: 'https://reviews.example/webshops/7/policy?lang=en',
  serviceUrl: 'https://reviews.example',
  brandName: 'Service',
  score: 9,
  count: 3,
  reviews: [
    // The order's day (an invitation), a month the writer named (the form), and a cache from before the field.
    {
      id: 1,
      name: 'A',
      rating: 5,
      comment: 'Fine',
      date: new Date(Date.UTC(2026, 3, 2)),
      reply: null,
      experienceDate: '2026-03-17',
    },
    {
      id: 2,
      name: 'B',
      rating: 1,
      comment: 'Late',
      date: new Date(Date.UTC(2026, 3, 1)),
      reply: null,
      experienceDate: '2025-12',
    },
    { id: 3, name: 'C', rating: 3, comment: 'Ok', date: new Date(Date.UTC(2026, 2, 1)), reply: null },
  ],
};

function page(query: Record<string, string>, language = 'en') {
  const options = widgetOptions(parseWidgetQuery({ id: '7', amount: '3', language, ...query }), {
    heroColor: '',
    mainLanguage: 'en',
    enabledLanguages: [...LANGUAGES],
  });
  return renderWidgetPage(options, data).html;
}

const lists = LAYOUTS.filter((l) => LAYOUT_INFO[l].lists);

describe('experience date in the widget', () => {
  for (const layout of lists) {
    for (const view of ['list', 'slider']) {
      it(`${layout} (${view}) shows it under each review's date, by month`, () => {
        const html = page({ layout, view });
        expect(html).toContain('<div class="ex"><time datetime="2026-03-17">Experience: March 2026</time></div>');
        expect(html).toContain('<div class="ex"><time datetime="2025-12">Experience: December 2025</time></div>');
        // A review cached before the field existed claims no date.
        expect(html.match(/class="ex"/g)).toHaveLength(2);
      });
    }
  }

  it('names the month in each of the seven languages', () => {
    const expected: Record<string, string> = {
      en: 'Experience: March 2026',
      nl: 'Ervaring: maart 2026',
      de: 'Erfahrung: März 2026',
      fr: 'Expérience : mars 2026',
      es: 'Experiencia: marzo de 2026',
      it: 'Esperienza: marzo 2026',
    };
    for (const language of LANGUAGES) {
      const html = page({ layout: 'new_default', view: 'list' }, language);
      const month = new Intl.DateTimeFormat(language, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
        new Date(Date.UTC(2026, 2, 1)),
      );
      expect(month).not.toMatch(/\b3\b|03/);
      expect(html).toContain(`datetime="2026-03-17"`);
      expect(html).toContain(month);
      if (expected[language]) expect(html).toContain(`>${expected[language]}</time>`);
    }
    // Croatian names the month in words too (the form Intl gives), never as a number.
    expect(page({ layout: 'modern', view: 'list' }, 'hr')).toMatch(/>Iskustvo: \p{L}+ 2026\.?<\/time>/u);
  });

  it.each(LAYOUTS.filter((l) => !LAYOUT_INFO[l].lists))('is not in the fixed-size %s layout', (layout) => {
    const html = page({ layout });
    expect(html).not.toContain('class="ex"');
    expect(html).not.toContain('Experience');
  });
});
