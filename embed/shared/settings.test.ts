// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULTS, mergeSettings, readGlobals } from './settings.js';

const scope = window as unknown as Record<string, unknown>;
const NAMES = [
  '_service_sidebar', '_service_sidebar_position', '_service_sidebar_top', '_service_sidebar_theme',
  '_service_mobile', '_service_mobile_tab', '_service_tooltip', '_service_language',
];

afterEach(() => {
  for (const name of NAMES) delete scope[name];
  vi.restoreAllMocks();
});

describe('page globals', () => {
  it('has the spec defaults when no global is set', () => {
    expect(readGlobals(window, 'service')).toEqual({});
    expect(mergeSettings(undefined, {})).toEqual({
      sidebar: true, position: 'left', top: '300', theme: 'dark', mobile: 'top_bar', mobile_tab: 'left', tooltip: true, language: '',
    });
  });

  it('reads all eight globals with valid values', () => {
    Object.assign(scope, {
      _service_sidebar: false, _service_sidebar_position: 'right', _service_sidebar_top: '40%', _service_sidebar_theme: 'light',
      _service_mobile: 'bottom_manual', _service_mobile_tab: 'center', _service_tooltip: false, _service_language: 'deu',
    });
    expect(readGlobals(window, 'service')).toEqual({
      sidebar: false, position: 'right', top: '40%', theme: 'light', mobile: 'bottom_manual', mobile_tab: 'center', tooltip: false, language: 'deu',
    });
  });

  it('accepts the forms shop templates write: "false" as a string, a number of pixels, any case', () => {
    Object.assign(scope, { _service_sidebar: 'false', _service_sidebar_top: 120, _service_sidebar_position: 'RIGHT', _service_language: 'url' });
    expect(readGlobals(window, 'service')).toEqual({ sidebar: false, top: '120', position: 'right', language: 'url' });
  });

  it('ignores each invalid value with exactly one warning naming the variable', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    Object.assign(scope, {
      _service_sidebar: 'yes', _service_sidebar_position: 'middle', _service_sidebar_top: 'high', _service_sidebar_theme: 'blue',
      _service_mobile: 'sideways', _service_mobile_tab: 0, _service_tooltip: 1, _service_language: 'nl',
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
    expect(mergeSettings(dashboard, { position: 'left' })).toMatchObject({ theme: 'light', position: 'left', tooltip: false, mobile: 'top_bar' });
  });

  it('falls back to the dashboard value when the global is invalid', () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    scope._service_sidebar_theme = 'purple';
    expect(mergeSettings({ theme: 'light' }, readGlobals(window, 'service')).theme).toBe('light');
  });
});
