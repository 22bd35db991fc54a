// The iframe snippet a merchant pastes: the widget URL with the parameters its layout takes, and an iframe whose
// height and width match `height` and `width_amount` (spec), with a title and lazy loading.
// widget/assets/configurator.ts builds the same URL and snippet in the browser; keep the two in step.
import { ISO3 } from '../server/languages.js';
import { takes } from './layouts.js';
import type { WidgetOptions } from './page.js';

export function widgetQuery(shopId: number, o: WidgetOptions): URLSearchParams {
  const q = new URLSearchParams({ id: String(shopId), layout: o.layout });
  if (takes(o.layout, 'theme')) q.set('theme', o.theme);
  if (takes(o.layout, 'color')) q.set('color', o.color);
  if (takes(o.layout, 'show')) {
    q.set('show', o.show ? 'yes' : 'no');
    if (o.show) {
      q.set('view', o.view);
      q.set('amount', String(o.amount));
      if (o.view === 'slider') q.set('interval', String(o.interval));
      // Issue 20: only when asked (without it, a snippet keeps its documented height and content).
      if (takes(o.layout, 'photos') && o.photos) q.set('photos', 'yes');
    }
  }
  q.set('width', o.width.mode);
  if (o.width.mode === 'manual') q.set('width_amount', `${o.width.value}${o.width.unit}`);
  q.set('height', String(o.height));
  q.set('language', ISO3[o.language]);
  if (o.css) q.set('css', o.css.kind === 'url' ? o.css.url : o.css.css);
  return q;
}

const escapeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

export function iframeWidth(o: WidgetOptions): string {
  if (o.width.mode === 'auto') return '100%';
  return o.width.unit === '%' ? `${o.width.value}%` : String(o.width.value);
}

export function widgetSnippet(baseUrl: string, shopId: number, o: WidgetOptions, title: string): string {
  const src = `${baseUrl}/webshops/widget_html?${widgetQuery(shopId, o).toString()}`;
  return (
    `<iframe src="${escapeAttribute(src)}" width="${iframeWidth(o)}" height="${o.height}" ` +
    `title="${escapeAttribute(title)}" loading="lazy" style="border:0"></iframe>`
  );
}
