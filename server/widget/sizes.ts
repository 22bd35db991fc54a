// The heaviest page each layout can produce (six long reviews with replies) and its sizes: the widget's size
// budgets (budget.test.ts) and the byte report (bench/widget-bytes.ts) both measure these.
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { WidgetData } from '../../widget/components.js';
import { renderWidgetPage } from '../../widget/page.js';
import { parseWidgetQuery, widgetOptions } from './params.js';

/** Compressed bytes of a whole page (HTML, CSS and script), per the issue: lists 12 KB, buttons and badges 5 KB. */
export const BUDGET = { list: 12 * 1024, compact: 5 * 1024 };

/** Varied words (repeated text would compress unrealistically well). */
function prose(words: number, seed: number): string {
  const vocabulary =
    'delivery fast friendly service package order again quality price shop helpful answer question product arrived well packed recommend'.split(
      ' ',
    );
  let x = seed;
  return Array.from({ length: words }, () => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return vocabulary[x % vocabulary.length]! + (x % 7 === 0 ? '.' : '');
  }).join(' ');
}

function heaviestData(photos: boolean): WidgetData {
  return {
    shopName: 'Fietsenwinkel De Grote Trapper & Zonen',
    pageUrl: 'https://reviews.example.com/webshops/123456',
    policyUrl: 'https://reviews.example.com/webshops/123456/policy?lang=en',
    serviceUrl: 'https://reviews.example.com',
    brandName: 'Service',
    score: 9.2,
    count: 123456,
    reviews: Array.from({ length: 6 }, (_, i) => ({
      id: 1000 + i,
      name: `Customer ${prose(3, i)}`,
      rating: 5 - (i % 3),
      comment: prose(200, i + 10),
      date: new Date(Date.UTC(2025, 0, 1 + i)),
      reply: prose(100, i + 20),
      // Every label at once: the longest line a review can carry.
      origin: 'imported' as const,
      importedFrom: 'A Review Platform With A Long Name',
      incentivised: true,
      experienceDate: '2024-09-30',
      // With `photos=yes`: five photos each, described at full length (200 characters).
      ...(photos
        ? {
            photos: Array.from({ length: 5 }, (_, n) => ({
              thumb: `/photos/${'AbCdEfGhIjKlMnOpQrStU'}${n}-320.webp`,
              alt: prose(35, i * 5 + n).slice(0, 200),
            })),
          }
        : {}),
    })),
  };
}

export function pageSizes(query: Record<string, string>) {
  const options = widgetOptions(parseWidgetQuery({ id: '1', ...query }), {
    heroColor: '',
    mainLanguage: 'en',
    enabledLanguages: ['en'],
  });
  const { html } = renderWidgetPage(options, heaviestData(options.photos === true));
  const raw = Buffer.from(html);
  return {
    raw: raw.length,
    gzip: gzipSync(raw, { level: 9 }).length,
    brotli: brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  };
}
