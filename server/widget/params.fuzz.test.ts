// Property tests of the widget's query parameters with random and adversarial values: a WidgetParamError naming
// the parameter (the 400 page) or options within their documented ranges, never another exception, and long
// values (a URL holds up to about 16 KB) in linear time.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LAYOUTS } from '../../widget/layouts.js';
import { fastestMs, fuzzOptions, repeated, textOf } from '../../test/fuzz.js';
import { CSS_MAX_LENGTH } from './css.js';
import {
  DEFAULTS,
  LIMITS,
  optionsKey,
  parseWidgetQuery,
  widgetOptions,
  WidgetParamError,
  type ShopDefaults,
} from './params.js';

const PARAMS = [
  'id',
  'layout',
  'theme',
  'color',
  'show',
  'view',
  'amount',
  'width',
  'width_amount',
  'height',
  'interval',
  'language',
  'css',
];
/** For 16 KB values: a few ms when linear; the margin is for a machine busy with other work. */
const LINEAR_MS = 500;

const shop: ShopDefaults = { heroColor: '#C00', mainLanguage: 'nl', enabledLanguages: ['nl', 'de'] };

/** The outcome: options, or the parameter a WidgetParamError names (any other exception fails the test). */
function outcome(query: Record<string, unknown>) {
  try {
    return widgetOptions(parseWidgetQuery(query), shop);
  } catch (err) {
    if (err instanceof WidgetParamError) return err.param;
    throw err;
  }
}

function expectWellFormed(result: ReturnType<typeof outcome>): void {
  if (typeof result === 'string') {
    expect(PARAMS).toContain(result);
    return;
  }
  expect(LAYOUTS).toContain(result.layout);
  expect(['light', 'dark']).toContain(result.theme);
  expect(result.color).toMatch(/^#[0-9a-f]{6}$/);
  expect(result.amount).toBeGreaterThanOrEqual(LIMITS.amount[0]);
  expect(result.amount).toBeLessThanOrEqual(LIMITS.amount[1]);
  expect(Number.isInteger(result.height) && result.height > 0).toBe(true);
  expect(result.interval).toBeGreaterThanOrEqual(LIMITS.interval[0]);
  expect(result.interval).toBeLessThanOrEqual(LIMITS.interval[1]);
  expect([...shop.enabledLanguages, 'en']).toContain(result.language);
  if (result.width.mode === 'manual') expect(result.width.value).toBeGreaterThan(0);
  expect(typeof optionsKey(result)).toBe('string');
}

// Each parameter as merchants write it, near its limits, and as nobody should: other words, arrays (`?a=1&a=2`),
// objects (`?a[b]=1`), blanks, odd characters.
const near = (values: string[]) => fc.oneof(fc.constantFrom(...values), textOf(values.join(''), 12));
const value = (values: string[]) =>
  fc.oneof(
    { arbitrary: near(values), weight: 6 },
    { arbitrary: fc.string({ maxLength: 20 }), weight: 1 },
    { arbitrary: fc.array(fc.string({ maxLength: 3 }), { minLength: 2, maxLength: 2 }), weight: 1 },
    {
      arbitrary: fc.dictionary(fc.string({ maxLength: 3 }), fc.string({ maxLength: 3 }), { minKeys: 1, maxKeys: 1 }),
      weight: 1,
    },
  );
const query = fc.record(
  {
    id: value(['7', '007', ' 12 ', '0', '-1', '1e3', '999999999999999999']),
    layout: value([...LAYOUTS, 'NEW_DEFAULT', 'fancy']),
    theme: value(['light', 'dark', 'Dark']),
    color: value(['#1a7f37', '#ABC', 'abc', '#abcd', 'red', '%23abc']),
    show: value(['yes', 'no', 'true', 'false', '1', '0', 'maybe']),
    view: value(['slider', 'list', 'grid']),
    amount: value(['1', '6', '0', '7', '2.5', '0001']),
    width: value(['auto', 'manual']),
    width_amount: value(['20px', '4000px', '19px', '4001', '1%', '100%', '101%', '0%', '50']),
    height: value(['20', '4000', '19px', '300px', 'px', '4001']),
    interval: value(['1000', '120000', '999', '120001', String(DEFAULTS.interval)]),
    language: value(['nld', 'eng', 'deu', 'fra', 'nl', 'de-DE', 'klingon']),
    css: value([
      '.w{color:red}',
      '@import url(https://cdn.example/a.css);',
      'https://cdn.example/a.css',
      '</style>',
      'content:"x"',
    ]),
    unknown: fc.string(),
  },
  { requiredKeys: [] },
);

describe('widget parameters', () => {
  it('give options within their ranges, or a WidgetParamError naming the parameter', () => {
    fc.assert(
      fc.property(query, (q) => expectWellFormed(outcome(q))),
      fuzzOptions(2000),
    );
  });

  it('take linear time on long values, custom CSS included', async () => {
    const param = fc.constantFrom(...PARAMS);
    const long = fc.oneof(
      repeated('#abc0123456789px%;{}()/*\\"\'@: url', 16 * 1024),
      repeated('/*{}"\\url(@import', CSS_MAX_LENGTH - 4),
    );
    await fc.assert(
      fc.asyncProperty(param, long, async (name, text) => {
        const q = { id: '7', [name]: text };
        let result: ReturnType<typeof outcome> = '';
        const ms = await fastestMs(() => (result = outcome(q)), LINEAR_MS);
        expect(ms, `${name}=${JSON.stringify(text.slice(0, 40))}`).toBeLessThan(LINEAR_MS);
        expectWellFormed(result);
      }),
      fuzzOptions(60),
    );
  });
});
