// Renders a whole widget page (HTML with its CSS and script inlined) and the Content Security Policy that
// allows exactly what the page contains: its inline <style> and <script> by hash, and the merchant's https
// stylesheets by URL. The page is made to be framed by any site.
import type { VNode } from 'preact';
import { renderToString } from 'preact-render-to-string';
import type { CustomCss } from '../server/widget/css.js';
import { cspSourceFor } from '../server/widget/css.js';
import type { Language } from '../server/languages.js';
import { cspHash } from '../server/http/html.js';
import { inlineScript } from '../server/http/inline-script.js';
import type { WidgetData } from './components.js';
import type { Layout } from './layouts.js';
import { LayoutView } from './layouts/index.js';
import { localeFor } from './strings.js';
import { BASE_CSS, LAYOUT_CSS, PHOTOS_CSS, themeCss } from './styles.js';

export type WidthOption = { mode: 'auto' } | { mode: 'manual'; value: number; unit: 'px' | '%' };

/** Every parameter with its default applied; parameters a layout does not take are ignored by it. */
export interface WidgetOptions {
  layout: Layout;
  theme: 'light' | 'dark';
  /** `#rrggbb`. */
  color: string;
  show: boolean;
  view: 'slider' | 'list';
  amount: number;
  width: WidthOption;
  height: number;
  interval: number;
  language: Language;
  css: CustomCss | undefined;
  /** Issue 20: the list layouts show reviews' photos as thumbnails (`photos=yes`); off by default. */
  photos?: boolean;
}

interface RenderedPage {
  html: string;
  csp: string;
}

interface DocumentParts {
  language: string;
  title: string;
  css: string;
  stylesheets: string[];
  body: VNode;
  script?: string;
}

export function renderDocument(parts: DocumentParts): string {
  return (
    '<!doctype html>' +
    renderToString(
      <html lang={parts.language}>
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width,initial-scale=1" />
          <title>{parts.title}</title>
          <style dangerouslySetInnerHTML={{ __html: parts.css }} />
          {parts.stylesheets.map((href) => (
            <link rel="stylesheet" href={href} />
          ))}
        </head>
        <body>
          {parts.body}
          {parts.script ? <script dangerouslySetInnerHTML={{ __html: parts.script }} /> : null}
        </body>
      </html>,
    )
  );
}

export function contentSecurityPolicy(parts: {
  css: string;
  stylesheets: string[];
  script?: string;
  images?: boolean;
}): string {
  const styles = [cspHash(parts.css), ...new Set(parts.stylesheets.map(cspSourceFor))].join(' ');
  const script = parts.script ? `; script-src ${cspHash(parts.script)}` : '';
  // Photos are served by the service itself (/photos/…), the frame's own origin.
  const images = parts.images ? "; img-src 'self'" : '';
  return `default-src 'none'; style-src ${styles}${script}${images}; base-uri 'none'; form-action 'none'; frame-ancestors *`;
}

function sizeCss(options: WidgetOptions): string {
  // The widget is `height` tall and never taller than the iframe, so it cannot scroll. A manual pixel width is
  // the widget's own width; a percentage is the iframe's business, and the widget fills the iframe.
  const width =
    options.width.mode === 'manual' && options.width.unit === 'px'
      ? `width:${options.width.value}px;max-width:100%;`
      : '';
  return `.w{${width}height:${options.height}px;max-height:100%}`;
}

export function renderWidgetPage(options: WidgetOptions, data: WidgetData): RenderedPage {
  const locale = localeFor(options.language);
  const custom = options.css;
  const css =
    themeCss(options.layout, options.theme, options.color) +
    BASE_CSS +
    LAYOUT_CSS[options.layout] +
    sizeCss(options) +
    (options.photos ? PHOTOS_CSS : '') +
    (custom?.kind === 'rules' ? `\n${custom.css}` : '');
  const stylesheets = custom?.kind === 'url' ? [custom.url] : custom?.kind === 'rules' ? custom.imports : [];
  const slides =
    (options.layout === 'new_default' || options.layout === 'modern') && options.show && options.view === 'slider';
  const script = slides && data.reviews.length > 1 ? inlineScript('slider').source : undefined;
  const body = <LayoutView layout={options.layout} data={data} locale={locale} options={options} />;
  // @import rules are loaded by the <style> element itself, so only a URL gets a <link>.
  const links = custom?.kind === 'url' ? [custom.url] : [];
  const html = renderDocument({
    language: locale.language,
    title: locale.t.title(data.shopName),
    css,
    stylesheets: links,
    body,
    script,
  });
  return { html, csp: contentSecurityPolicy({ css, stylesheets, script, images: options.photos }) };
}
