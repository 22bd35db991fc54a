// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { settle } from './start.js';
import type { EmbedContext } from '../shared/context.js';

const SHOP = { id: 42, name: 'Fiets & Co', language: 'nl', score: 9.2, count: 12, badges: [], settings: {} };
const context = (settings = {}) => ({ brand: 'service', shop: { ...SHOP, settings } }) as unknown as EmbedContext;
const page = (htmlLang = '') => ({ url: new URL('https://shop.example/de/fahrrad'), htmlLang, languages: ['fr-FR'] });

afterEach(() => vi.restoreAllMocks());

describe('the app as it starts', () => {
  it('merges the page globals over the dashboard configuration and detects the language', () => {
    const ctx = context({ theme: 'light', position: 'right', tooltip: false });
    settle(ctx, { _service_sidebar_position: 'left', _service_language: 'html' }, page('it-IT'));
    expect(ctx.settings).toMatchObject({ theme: 'light', position: 'left', tooltip: false, sidebar: true, top: '300' });
    expect(ctx.lang).toBe('it');
  });

  it("speaks the shop's language when nothing says otherwise, and follows the address or browser when told to", () => {
    const ctx = context();
    settle(ctx, {}, page());
    expect(ctx.lang).toBe('nl');
    settle(ctx, { _service_language: 'url' }, page());
    expect(ctx.lang).toBe('de');
    settle(ctx, { _service_language: 'browser' }, page());
    expect(ctx.lang).toBe('fr');
  });

  it('warns once per invalid global and carries on with the dashboard value or the default', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const ctx = context({ mobile: 'bottom' });
    settle(ctx, { _service_sidebar_theme: 'purple', _service_mobile: 'sideways' }, page());
    expect(warn).toHaveBeenCalledTimes(2);
    expect(ctx.settings).toMatchObject({ theme: 'dark', mobile: 'bottom' });
  });
});
