import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.js';
import type { Webshop } from '../webshops/store.js';

let t: TestApp;
let shop: Webshop;
beforeAll(async () => {
  t = await startTestApp({ BASE_URL: 'https://reviews.example.com' });
  shop = await t.createShop({ name: 'Fiets & Co', hero_color: '#0969da' });
});
afterAll(() => t.close());

const open = async (query: string) => {
  const res = await t.fetch(`/webshops/widget?${query}`);
  return { res, html: await res.text() };
};
const rowHidden = (html: string, param: string) => new RegExp(`data-param="${param}"[^>]*hidden`).test(html);

describe('GET /webshops/widget (configurator)', () => {
  it('shows the form, a live preview and the snippet with matching height and width, a title and lazy loading', async () => {
    const { res, html } = await open(`id=${shop.id}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'self'");
    expect(html).toContain('<iframe id="preview" src="/webshops/widget_html?');
    expect(html).toContain(
      `&lt;iframe src=&quot;https://reviews.example.com/webshops/widget_html?id=${shop.id}&amp;amp;layout=new_default&amp;amp;theme=light&amp;amp;color=%230969da&amp;amp;show=yes&amp;amp;view=slider&amp;amp;amount=3&amp;amp;interval=5000&amp;amp;width=auto&amp;amp;height=260&amp;amp;language=eng&quot; width=&quot;100%&quot; height=&quot;260&quot; title=&quot;Reviews of Fiets &amp;amp; Co&quot; loading=&quot;lazy&quot; style=&quot;border:0&quot;>&lt;/iframe>`,
    );
    for (const name of [
      'layout',
      'theme',
      'color',
      'show',
      'view',
      'amount',
      'interval',
      'width',
      'width_amount',
      'height',
      'language',
      'css',
    ]) {
      expect(html, name).toContain(`name="${name}"`);
    }
    expect(html).toContain('<button type="button" id="copy" hidden>');
  });

  it('hides the fields that do not apply to the chosen layout', async () => {
    const badge = (await open(`id=${shop.id}&layout=new_badges`)).html;
    for (const param of ['show', 'view', 'amount', 'interval']) expect(rowHidden(badge, param), param).toBe(true);
    for (const param of ['theme', 'color', 'height', 'language', 'css'])
      expect(rowHidden(badge, param), param).toBe(false);
    const modern = (await open(`id=${shop.id}&layout=modern&view=list`)).html;
    expect(rowHidden(modern, 'theme')).toBe(true);
    expect(rowHidden(modern, 'color')).toBe(true);
    expect(rowHidden(modern, 'interval')).toBe(true);
    expect(rowHidden(modern, 'amount')).toBe(false);
  });

  it('offers photos=yes for the layouts that list reviews, with the height documented for it', async () => {
    const plain = (await open(`id=${shop.id}&layout=new_default&view=list&amount=3`)).html;
    expect(plain).toMatch(/<input type="checkbox" name="photos" value="yes" aria-describedby="f-photos-hint"\/?>/);
    expect(rowHidden(plain, 'photos')).toBe(false);
    // Unasked, the snippet stays as it was (no parameter, the documented height).
    expect(plain).not.toContain('photos=yes');
    expect(plain).toContain('height=&quot;534&quot;');
    const list = (await open(`id=${shop.id}&layout=new_default&view=list&amount=3&photos=yes`)).html;
    expect(list).toMatch(/name="photos" value="yes" checked/);
    // 62 px a review in the list of new_default (three here), once in the slider and in modern.
    expect(list).toContain('amount=3&amp;amp;photos=yes&amp;amp;width=auto&amp;amp;height=720&amp;amp;');
    expect(list).toContain('height=&quot;720&quot;');
    const slider = (await open(`id=${shop.id}&layout=new_default&view=slider&photos=yes`)).html;
    expect(slider).toContain('interval=5000&amp;amp;photos=yes&amp;amp;width=auto&amp;amp;height=322&amp;amp;');
    const modern = (await open(`id=${shop.id}&layout=modern&view=list&photos=yes`)).html;
    expect(modern).toContain('photos=yes&amp;amp;width=auto&amp;amp;height=312&amp;amp;');
    // The score only, or a layout without reviews: no photos, whatever the query says.
    const none = (await open(`id=${shop.id}&layout=new_default&show=no&photos=yes`)).html;
    expect(rowHidden(none, 'photos')).toBe(true);
    expect(none).not.toContain('photos=yes');
    const badge = (await open(`id=${shop.id}&layout=new_badges&photos=yes`)).html;
    expect(rowHidden(badge, 'photos')).toBe(true);
    expect(badge).not.toContain('photos=yes');
    // The browser script gets the heights with photos too.
    const config = JSON.parse(
      /data-config="([^"]+)"/
        .exec(list)![1]!
        .replace(/&quot;/g, '"')
        .replace(/&amp;/g, '&'),
    ) as { layouts: Record<string, { photoSlider: number; photoList: number[]; list: number[] }> };
    expect(config.layouts.new_default!.photoList).toEqual(
      config.layouts.new_default!.list.map((h, i) => h + 62 * (i + 1)),
    );
    expect(config.layouts.modern!.photoSlider).toBe(332);
  });

  it('writes a snippet with a fixed width when the width is manual', async () => {
    const { html } = await open(`id=${shop.id}&layout=new_button-text&width=manual&width_amount=240px&height=44`);
    expect(html).toContain('width=manual&amp;amp;width_amount=240px&amp;amp;height=44');
    expect(html).toContain('width=&quot;240&quot; height=&quot;44&quot;');
  });

  it('asks for an id without one, and says so for an unknown one', async () => {
    const none = await open('');
    expect(none.res.status).toBe(200);
    expect(none.html).toContain('Enter your webshop id to see the preview.');
    const unknown = await open('id=987654');
    expect(unknown.res.status).toBe(404);
    expect(unknown.html).toContain('There is no webshop with id 987654.');
  });

  it('shows a parameter problem and falls back to the defaults', async () => {
    const { res, html } = await open(`id=${shop.id}&amount=9`);
    expect(res.status).toBe(200);
    expect(html).toContain('The parameter amount must be a whole number from 1 to 6');
  });
});
