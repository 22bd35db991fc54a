// The configurator (`/webshops/widget`): a form for every widget parameter, a live preview and the snippet to
// copy. It works without JavaScript (the form reloads the page with the chosen values); with it,
// widget/assets/configurator.js hides the fields that do not apply, updates the preview and snippet as the
// merchant types, and copies the snippet.
import type { VNode } from 'preact';
import { ISO3, LANGUAGE_NAMES, type Language } from '../server/languages.js';
import { cspHash } from '../server/http/html.js';
import { inlineScript } from '../server/http/inline-script.js';
import { LAYOUTS, LAYOUT_INFO, recommendedHeight, takes, type WidgetParam } from './layouts.js';
import { renderDocument, type WidgetOptions } from './page.js';
import { iframeWidth, widgetQuery, widgetSnippet } from './snippet.js';
import { LIMITS as LIMITS_FOR_FORM } from '../server/widget/params.js';

interface ConfiguratorModel {
  baseUrl: string;
  /** The shop, when the id is known. */
  shop?: { id: number; name: string; languages: Language[] };
  /** The id as typed, when it is not a known shop. */
  idInput: string;
  options: WidgetOptions;
  /** Titles of the iframe per widget language, for the shop. */
  titles: Partial<Record<Language, string>>;
  /** A problem with the id or another parameter, shown above the form. */
  problem?: string;
}

const CSS =
  '*{box-sizing:border-box}' +
  'body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2328;background:#f6f8fa}' +
  'main{max-width:1200px;margin:0 auto;padding:16px}' +
  'h1{font-size:24px;margin:0 0 4px}h2{font-size:18px;margin:0 0 8px}' +
  '.cols{display:grid;gap:16px;grid-template-columns:minmax(280px,380px) 1fr;align-items:start}' +
  '@media (max-width:760px){.cols{grid-template-columns:1fr}}' +
  'form,section{background:#fff;border:1px solid #d0d7de;border-radius:10px;padding:16px}' +
  'section+section{margin-top:16px}' +
  'fieldset{border:0;margin:0 0 12px;padding:0}legend,label.f{display:block;font-weight:600;margin-bottom:4px}' +
  '.row{margin:0 0 12px}.opts{display:flex;flex-wrap:wrap;gap:4px 14px}' +
  'input[type=text],input[type=number],select,textarea{font:inherit;padding:6px 8px;border:1px solid #6e7781;border-radius:6px;width:100%}' +
  'input[type=color]{width:64px;height:36px;border:1px solid #6e7781;border-radius:6px;padding:2px}' +
  'textarea{font:13px/1.4 ui-monospace,monospace}' +
  'button{font:inherit;font-weight:600;padding:8px 14px;border-radius:6px;border:1px solid #1f2328;background:#1f2328;color:#fff;cursor:pointer}' +
  ':focus-visible{outline:3px solid #0969da;outline-offset:2px}' +
  '[hidden]{display:none!important}' +
  '.hint{color:#57606a;font-size:13px;margin:2px 0 0}' +
  '.problem{border:1px solid #cf222e;background:#ffebe9;border-radius:6px;padding:8px 12px}' +
  '.frame{overflow:auto;padding:12px;border:1px dashed #8c959f;border-radius:6px;background:repeating-conic-gradient(#f6f8fa 0 25%,#fff 0 50%) 0 0/20px 20px}' +
  'iframe{display:block;border:0}';

/** Which conditions hide a field, besides its layout: read by configurator.js too. */
type Condition = 'show' | 'slider' | 'manual';

function Field({
  param,
  options,
  when,
  children,
}: {
  param: WidgetParam | 'width_amount';
  options: WidgetOptions;
  when?: Condition;
  children: VNode | VNode[];
}) {
  const layoutParam = param === 'width_amount' ? 'width' : param;
  const visible = takes(options.layout, layoutParam) && conditionHolds(when, options);
  return (
    <div class="row" data-param={layoutParam} data-when={when} hidden={!visible}>
      {children}
    </div>
  );
}

function conditionHolds(when: Condition | undefined, o: WidgetOptions): boolean {
  if (when === 'show') return o.show;
  if (when === 'slider') return o.show && o.view === 'slider';
  if (when === 'manual') return o.width.mode === 'manual';
  return true;
}

function Choice({
  name,
  label,
  values,
  current,
}: {
  name: string;
  label: string;
  values: [string, string][];
  current: string;
}) {
  return (
    <fieldset>
      <legend>{label}</legend>
      <div class="opts">
        {values.map(([value, text]) => (
          <label>
            <input type="radio" name={name} value={value} checked={value === current} /> {text}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** Heights the script proposes when the layout or the review options change (see recommendedHeight). */
function layoutTable() {
  return Object.fromEntries(
    LAYOUTS.map((l) => [
      l,
      {
        params: LAYOUT_INFO[l].params,
        width: LAYOUT_INFO[l].width,
        none: recommendedHeight(l, { show: false, view: 'list', amount: 1 }),
        slider: recommendedHeight(l, { show: true, view: 'slider', amount: 1 }),
        list: [1, 2, 3, 4, 5, 6].map((amount) => recommendedHeight(l, { show: true, view: 'list', amount })),
        // With `photos=yes`: a row of thumbnails under each review shown (docs/widget.md).
        photoSlider: recommendedHeight(l, { show: true, view: 'slider', amount: 1, photos: true }),
        photoList: [1, 2, 3, 4, 5, 6].map((amount) =>
          recommendedHeight(l, { show: true, view: 'list', amount, photos: true }),
        ),
      },
    ]),
  );
}

/** The product layout's iframe, for a product id the merchant fills in. */
const productSnippet = (baseUrl: string, shopId: number | undefined) =>
  `<iframe src="${baseUrl}/webshops/widget_html?id=${shopId ?? 'SHOP_ID'}&layout=product&product=PRODUCT_ID" ` +
  `width="100%" height="800" title="Product reviews" loading="lazy" style="border:0"></iframe>`;

export function renderConfigurator(model: ConfiguratorModel): { html: string; csp: string } {
  const o = model.options;
  const shop = model.shop;
  const languages: Language[] = shop ? [...new Set<Language>(['en', ...shop.languages])] : ['en'];
  const title = model.titles[o.language] ?? '';
  const snippet = shop ? widgetSnippet(model.baseUrl, shop.id, o, title) : '';
  const previewSrc = shop ? `/webshops/widget_html?${widgetQuery(shop.id, o).toString()}` : '';
  const config = JSON.stringify({
    base: model.baseUrl,
    layouts: layoutTable(),
    titles: Object.fromEntries(Object.entries(model.titles).map(([l, t]) => [ISO3[l as Language], t])),
  });
  const width = o.width.mode === 'manual' ? `${o.width.value}${o.width.unit}` : '';
  const body = (
    <main>
      <h1>Review widget</h1>
      <p>Choose a layout and its options, check the preview, then copy the code into your shop’s pages.</p>
      {model.problem ? (
        <p class="problem" role="alert">
          {model.problem}
        </p>
      ) : null}
      <div class="cols">
        <form method="get" action="/webshops/widget" id="cfg" data-config={config} aria-label="Widget options">
          <div class="row">
            <label class="f" for="f-id">
              Webshop id
            </label>
            <input
              type="text"
              id="f-id"
              name="id"
              inputmode="numeric"
              pattern="[0-9]+"
              required
              value={shop ? String(shop.id) : model.idInput}
            />
          </div>
          <div class="row">
            <label class="f" for="f-layout">
              Layout
            </label>
            <select id="f-layout" name="layout">
              {LAYOUTS.map((l) => (
                <option value={l} selected={l === o.layout}>
                  {`${LAYOUT_INFO[l].label} (${l})`}
                </option>
              ))}
            </select>
          </div>
          <Field param="theme" options={o}>
            <Choice
              name="theme"
              label="Theme"
              values={[
                ['light', 'Light'],
                ['dark', 'Dark'],
              ]}
              current={o.theme}
            />
          </Field>
          <Field param="color" options={o}>
            <label class="f" for="f-color">
              Colour
            </label>
            <input type="color" id="f-color" name="color" value={o.color} />
          </Field>
          <Field param="show" options={o}>
            <Choice
              name="show"
              label="Show reviews"
              values={[
                ['yes', 'Yes'],
                ['no', 'No, the score only'],
              ]}
              current={o.show ? 'yes' : 'no'}
            />
          </Field>
          <Field param="view" options={o} when="show">
            <Choice
              name="view"
              label="Reviews as"
              values={[
                ['slider', 'Slider'],
                ['list', 'List'],
              ]}
              current={o.view}
            />
          </Field>
          <Field param="amount" options={o} when="show">
            <label class="f" for="f-amount">
              Number of reviews
            </label>
            <input
              type="number"
              id="f-amount"
              name="amount"
              min={LIMITS_FOR_FORM.amount[0]}
              max={LIMITS_FOR_FORM.amount[1]}
              value={String(o.amount)}
            />
          </Field>
          <Field param="interval" options={o} when="slider">
            <label class="f" for="f-interval">
              Time per review (milliseconds)
            </label>
            <input
              type="number"
              id="f-interval"
              name="interval"
              min={LIMITS_FOR_FORM.interval[0]}
              max={LIMITS_FOR_FORM.interval[1]}
              step="500"
              value={String(o.interval)}
            />
          </Field>
          <Field param="photos" options={o} when="show">
            <label class="f">
              <input
                type="checkbox"
                name="photos"
                value="yes"
                checked={o.photos === true}
                aria-describedby="f-photos-hint"
              />{' '}
              Show reviews’ photos
            </label>
            <p class="hint" id="f-photos-hint">
              Small thumbnails under each review that open the review on your review page in a new tab. The proposed
              height grows by 62 pixels for each review in a list of the default layout, by 62 pixels otherwise.
            </p>
          </Field>
          <Field param="width" options={o}>
            <Choice
              name="width"
              label="Width"
              values={[
                ['auto', 'Fill the space'],
                ['manual', 'Fixed'],
              ]}
              current={o.width.mode}
            />
          </Field>
          <Field param="width_amount" options={o} when="manual">
            <label class="f" for="f-width">
              Fixed width
            </label>
            <input type="text" id="f-width" name="width_amount" value={width} aria-describedby="f-width-hint" />
            <p class="hint" id="f-width-hint">
              Pixels (e.g. 300px) or a percentage (e.g. 50%).
            </p>
          </Field>
          <Field param="height" options={o}>
            <label class="f" for="f-height">
              Height (pixels)
            </label>
            <input
              type="number"
              id="f-height"
              name="height"
              min={LIMITS_FOR_FORM.height[0]}
              max={LIMITS_FOR_FORM.height[1]}
              value={String(o.height)}
            />
          </Field>
          <Field param="language" options={o}>
            <label class="f" for="f-language">
              Language
            </label>
            <select id="f-language" name="language">
              {languages.map((l) => (
                <option value={ISO3[l]} selected={l === o.language}>
                  {LANGUAGE_NAMES[l]}
                </option>
              ))}
            </select>
          </Field>
          <Field param="css" options={o}>
            <label class="f" for="f-css">
              Extra CSS (optional)
            </label>
            <textarea
              id="f-css"
              name="css"
              rows={3}
              aria-describedby="f-css-hint"
              value={o.css ? (o.css.kind === 'url' ? o.css.url : o.css.css) : ''}
            />
            <p class="hint" id="f-css-hint">
              CSS rules (usually with !important) or the https URL of a stylesheet. It applies inside the iframe only;
              text in a <code>content</code> property is left out.
            </p>
          </Field>
          <button type="submit">Update preview</button>
        </form>
        <div>
          <section aria-labelledby="h-preview">
            <h2 id="h-preview">Preview</h2>
            <div class="frame">
              {shop ? (
                <iframe id="preview" src={previewSrc} width={iframeWidth(o)} height={String(o.height)} title={title} />
              ) : (
                <p>Enter your webshop id to see the preview.</p>
              )}
            </div>
          </section>
          <section aria-labelledby="h-code">
            <h2 id="h-code">Code for your page</h2>
            <label class="f" for="snippet">
              Paste this where the widget should appear
            </label>
            <textarea id="snippet" readonly rows={5} value={snippet} />
            <p>
              <button type="button" id="copy" hidden>
                Copy code
              </button>{' '}
              <span id="copied" role="status"></span>
            </p>
          </section>
          <section aria-labelledby="h-product">
            <h2 id="h-product">Reviews of one product</h2>
            <p>
              The product layout lists one product’s reviews in an iframe: add <code>layout=product&amp;product=</code>{' '}
              and the product’s id, SKU or GTIN to the address.
            </p>
            <label class="f" for="product-snippet">
              Code for a product page (replace PRODUCT_ID)
            </label>
            <textarea id="product-snippet" readonly rows={4} value={productSnippet(model.baseUrl, shop?.id)} />
            <p>
              An iframe carries no structured data (JSON-LD) for your product page: what is inside a frame belongs to
              the frame’s address, so Google shows no stars for it. For stars in Google, use the loader’s product block
              (<code>_service_product</code>), which adds the product’s JSON-LD to your page.
            </p>
          </section>
        </div>
      </div>
    </main>
  );
  const script = inlineScript('configurator').source;
  const html = renderDocument({
    language: 'en',
    title: 'Review widget configurator',
    css: CSS,
    stylesheets: [],
    body,
    script,
  });
  const csp =
    `default-src 'none'; style-src ${cspHash(CSS)}; script-src ${cspHash(script)}; frame-src 'self'; ` +
    `form-action 'self'; base-uri 'none'; frame-ancestors 'self'`;
  return { html, csp };
}
