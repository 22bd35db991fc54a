// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BOOL, coerce, DEFAULTS, mergeSettings, readGlobals, settingKey, TABLE } from './settings.js';

const scope = window as unknown as Record<string, unknown>;
const NAMES = [
  '_service_sidebar',
  '_service_sidebar_position',
  '_service_sidebar_top',
  '_service_sidebar_theme',
  '_service_mobile',
  '_service_mobile_tab',
  '_service_tooltip',
  '_service_language',
];

afterEach(() => {
  for (const name of NAMES) delete scope[name];
  vi.restoreAllMocks();
});

describe('page globals', () => {
  it('has the spec defaults when no global is set', () => {
    expect(readGlobals(window, 'service')).toEqual({});
    expect(mergeSettings(undefined, {})).toEqual({
      sidebar: true,
      position: 'left',
      top: '300',
      theme: 'dark',
      mobile: 'top_bar',
      mobile_tab: 'left',
      tooltip: true,
      language: '',
    });
  });

  it('reads all eight globals with valid values', () => {
    Object.assign(scope, {
      _service_sidebar: false,
      _service_sidebar_position: 'right',
      _service_sidebar_top: '40%',
      _service_sidebar_theme: 'light',
      _service_mobile: 'bottom_manual',
      _service_mobile_tab: 'center',
      _service_tooltip: false,
      _service_language: 'deu',
    });
    expect(readGlobals(window, 'service')).toEqual({
      sidebar: false,
      position: 'right',
      top: '40%',
      theme: 'light',
      mobile: 'bottom_manual',
      mobile_tab: 'center',
      tooltip: false,
      language: 'deu',
    });
  });

  it('accepts the forms shop templates write: "false" as a string, a number of pixels, any case', () => {
    Object.assign(scope, {
      _service_sidebar: 'false',
      _service_sidebar_top: 120,
      _service_sidebar_position: 'RIGHT',
      _service_language: 'url',
    });
    expect(readGlobals(window, 'service')).toEqual({ sidebar: false, top: '120', position: 'right', language: 'url' });
  });

  it('ignores each invalid value with exactly one warning naming the variable', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    Object.assign(scope, {
      _service_sidebar: 'yes',
      _service_sidebar_position: 'middle',
      _service_sidebar_top: 'high',
      _service_sidebar_theme: 'blue',
      _service_mobile: 'sideways',
      _service_mobile_tab: 0,
      _service_tooltip: 1,
      _service_language: 'nl',
    });
    const globals = readGlobals(window, 'service');
    expect(globals).toEqual({});
    expect(warn).toHaveBeenCalledTimes(8);
    for (const name of NAMES) expect(warn.mock.calls.some(([m]) => String(m).startsWith(`${name}:`))).toBe(true);
    expect(mergeSettings(undefined, globals)).toEqual(DEFAULTS);
  });

  it('uses the configured brand word in the names', () => {
    scope._acme_sidebar_theme = 'light';
    scope._service_sidebar_theme = 'dark';
    expect(readGlobals(window, 'acme')).toEqual({ theme: 'light' });
    delete scope._acme_sidebar_theme;
  });
});

describe('merging with the dashboard configuration', () => {
  it('lets a global win, and the dashboard only where no global is set', () => {
    const dashboard = { theme: 'light' as const, position: 'right' as const, tooltip: false };
    expect(mergeSettings(dashboard, { position: 'left' })).toMatchObject({
      theme: 'light',
      position: 'left',
      tooltip: false,
      mobile: 'top_bar',
    });
  });

  it('falls back to the dashboard value when the global is invalid', () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    scope._service_sidebar_theme = 'purple';
    expect(mergeSettings({ theme: 'light' }, readGlobals(window, 'service')).theme).toBe('light');
  });
});

describe('the one table the embed and the operator API share', () => {
  it('accepts what the specification allows: pixels with decimals, percentages, any case', () => {
    const top = TABLE.find(([name]) => name === 'sidebar_top')![2];
    for (const value of ['300', '12.5', '12.5px', '40%', '33.3%', 120]) expect(coerce(top, value)).toBe(String(value));
    for (const value of ['high', '-5', '12345', '1e3', '', ['300'], { top: 1 }])
      expect(coerce(top, value)).toBeUndefined();
    expect(coerce(BOOL, 'TRUE')).toBe(true);
    expect(coerce(BOOL, 0)).toBeUndefined();
  });

  it('names every setting once, with the page global and the key the embed uses', () => {
    expect(TABLE.map(([name]) => settingKey(name))).toEqual(Object.keys(DEFAULTS));
    expect(Object.keys(DEFAULTS).sort()).toEqual([
      'language',
      'mobile',
      'mobile_tab',
      'position',
      'sidebar',
      'theme',
      'tooltip',
      'top',
    ]);
  });

  it('accepts every mobile mode of the specification and nothing else', () => {
    const mobile = TABLE.find(([name]) => name === 'mobile')![2];
    const modes = [
      'none',
      'top_bar',
      'top',
      'top_left',
      'top_right',
      'top_manual',
      'bottom',
      'bottom_left',
      'bottom_right',
      'bottom_manual',
    ];
    for (const mode of modes) expect(coerce(mobile, mode)).toBe(mode);
    for (const mode of ['bottom_bar', 'top_center', 'left', 'top_']) expect(coerce(mobile, mode)).toBeUndefined();
  });
});
