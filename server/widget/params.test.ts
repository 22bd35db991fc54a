import { describe, expect, it } from 'vitest';
import { optionsKey, parseWidgetQuery, widgetOptions, WidgetParamError, type ShopDefaults } from './params.js';

const shop: ShopDefaults = { heroColor: '', mainLanguage: 'nl', enabledLanguages: ['nl', 'de'] };
const options = (query: Record<string, unknown>) => widgetOptions(parseWidgetQuery({ id: '7', ...query }), shop);
const refusal = (query: Record<string, unknown>) => {
  try {
    parseWidgetQuery({ id: '7', ...query });
  } catch (err) {
    if (err instanceof WidgetParamError) return err.param;
    throw err;
  }
  return undefined;
};

describe('widget parameters', () => {
  it('gives every missing or empty parameter its documented default', () => {
    const defaults = {
      layout: 'new_default',
      theme: 'light',
      color: '#1a7f37',
      show: true,
      view: 'slider',
      amount: 3,
      width: { mode: 'auto' },
      height: 260,
      interval: 5000,
      language: 'nl',
      css: undefined,
    };
    expect(options({})).toEqual(defaults);
    expect(options({ layout: '', theme: ' ', color: '', amount: '', css: '' })).toEqual(defaults);
  });

  it('renders an unknown layout as new_default', () => {
    expect(options({ layout: 'fancy_new' }).layout).toBe('new_default');
  });

  it('reads every parameter', () => {
    expect(
      options({
        layout: 'modern',
        theme: 'dark',
        color: '#ABC',
        show: 'no',
        view: 'list',
        amount: '6',
        width: 'manual',
        width_amount: '50%',
        height: '300px',
        interval: '8000',
        language: 'deu',
        css: '.w{color:red}',
      }),
    ).toEqual({
      layout: 'modern',
      theme: 'dark',
      color: '#aabbcc',
      show: false,
      view: 'list',
      amount: 6,
      width: { mode: 'manual', value: 50, unit: '%' },
      height: 300,
      interval: 8000,
      language: 'de',
      css: { kind: 'rules', css: '.w{color:red}', imports: [] },
    });
  });

  it('falls back to English for a language the shop has not enabled, and takes the hero colour', () => {
    expect(options({ language: 'fra' }).language).toBe('en');
    expect(widgetOptions(parseWidgetQuery({ id: '7' }), { ...shop, heroColor: '#C00' }).color).toBe('#cc0000');
  });

  it('proposes a height that grows with the reviews asked for', () => {
    expect(options({ view: 'list', amount: '1' }).height).toBeLessThan(options({ view: 'list', amount: '4' }).height);
    expect(options({ show: 'no' }).height).toBeLessThan(options({}).height);
    expect(options({ layout: 'new_button-text' }).height).toBe(44);
  });

  it.each([
    ['amount', { amount: '9' }],
    ['amount', { amount: '0' }],
    ['amount', { amount: '2.5' }],
    ['color', { color: 'red;}' }],
    ['color', { color: 'red' }],
    ['height', { height: '-5' }],
    ['height', { height: '0' }],
    ['height', { height: 'tall' }],
    ['theme', { theme: 'purple' }],
    ['show', { show: 'maybe' }],
    ['view', { view: 'grid' }],
    ['width', { width: 'wide' }],
    ['width_amount', { width_amount: '120%' }],
    ['width_amount', { width_amount: '10em' }],
    ['interval', { interval: '10' }],
    ['language', { language: 'klingon' }],
    ['css', { css: '</style><script>alert(1)</script>' }],
    ['amount', { amount: ['1', '2'] }],
    ['id', { id: 'abc' }],
    ['id', { id: '-1' }],
    ['id', { id: { $ne: 1 } }],
  ])('refuses an invalid %s (%j)', (param, query) => {
    expect(refusal(query)).toBe(param);
  });

  it('keys the cache only by what the layout uses', () => {
    expect(optionsKey(options({ layout: 'modern', theme: 'dark' }))).toBe(
      optionsKey(options({ layout: 'modern', theme: 'light' })),
    );
    expect(optionsKey(options({ layout: 'new_badges', amount: '2' }))).toBe(
      optionsKey(options({ layout: 'new_badges', amount: '5' })),
    );
    expect(optionsKey(options({ theme: 'dark' }))).not.toBe(optionsKey(options({ theme: 'light' })));
  });
});
