// The product block on a shop's product page: each `<div class="<brand>ProductReviews">` with a product gets, inside
// a shadow root, the server-rendered reviews of that product (GET /webshops/{id}/products/reviews.html), and keeps
// them working in place: paging, sorting and the star filter fetch the next fragment, "Helpful" votes are sent once
// per browser. No framework: the server renders, this file only fetches, swaps and wires. A page about one product
// also gets the product's JSON-LD in its <head>, once (Google reads markup added by script).
import type { EmbedContext } from '../shared/context.js';
import { detectLanguage, type Lang } from '../shared/language.js';
import { setting, TABLE } from '../shared/settings.js';
import {
  announcement,
  type Block,
  fragmentUrl,
  isJsonLd,
  jsonLdProduct,
  jsonLdUrl,
  productOf,
  votesOf,
  withVote,
} from './rules.js';

type Row = (typeof TABLE)[number];
const row = (name: string) => TABLE.find(([n]) => n === name) as Row;

/** The reserved height before the reviews arrive, which the shop sets with this custom property (docs/embedding.md). */
const reserve = (brand: string) => `var(--${brand}-product-reviews-min-height,32rem)`;

/** Visually hidden, still read: the polite announcement after paging or filtering. */
const HIDDEN = 'position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap';

interface Env {
  ctx: EmbedContext;
  lang: Lang;
  theme: 'light' | 'dark';
  scope: Record<string, unknown>;
  storage: () => Storage | undefined;
}

/** Fills every block on the page that is not filled yet; the JSON-LD once, for a page about one product. */
export async function startProductBlocks(ctx: EmbedContext, scope: Window = window): Promise<void> {
  const globals = scope as unknown as Record<string, unknown>;
  const language = String(setting(row('language'), globals, ctx.brand, ctx.shop.settings));
  const env: Env = {
    ctx,
    lang: detectLanguage(
      language,
      { url: location, htmlLang: document.documentElement.lang, languages: navigator.languages },
      ctx.shop.language,
    ),
    theme: setting(row('sidebar_theme'), globals, ctx.brand, ctx.shop.settings) as Env['theme'],
    scope: globals,
    storage: () => {
      try {
        return scope.localStorage;
      } catch {
        return undefined;
      }
    },
  };
  const hosts = [...document.querySelectorAll<HTMLElement>(`.${ctx.brand}ProductReviews`)];
  const described = hosts.map((host) => ({
    host,
    product: productOf(host.dataset.product, globals[`_${ctx.brand}_product`]),
    jsonld: host.dataset.jsonld,
  }));
  const shown = await Promise.all(described.map(({ host, product }) => product !== '' && fill(env, host, product)));
  const pageProduct = jsonLdProduct(described);
  // Only a product that has reviews, and only from the run that filled a block of it (another run of the loader on
  // the same page found the blocks taken).
  if (pageProduct && described.some((b, i) => b.product === pageProduct && shown[i])) {
    await addJsonLd(env, pageProduct);
  }
}

/** Fills one block; true when it shows reviews (false: empty, not ours to fill, or failed). */
async function fill(env: Env, host: HTMLElement, product: string): Promise<boolean> {
  const { ctx } = env;
  let root: ShadowRoot;
  try {
    root = host.attachShadow({ mode: 'open' });
  } catch {
    // Already filled by an earlier run (the loader included twice, a single-page app reloading it).
    return false;
  }
  // The shop's own reservation, when it made one in its stylesheet, wins; else ours, which it can set per page.
  const reserved = !Number.parseFloat(getComputedStyle(host).minHeight);
  if (reserved) host.style.minHeight = reserve(ctx.brand);
  const theme = host.dataset.theme === 'light' || host.dataset.theme === 'dark' ? host.dataset.theme : env.theme;
  const block: Block = { base: ctx.base, shopId: ctx.id, product, lang: env.lang, theme };
  const content = document.createElement('div');
  // The block's language may differ from the page's (a shop's default language on a page in another).
  content.lang = env.lang;
  const live = document.createElement('p');
  live.lang = env.lang;
  live.setAttribute('role', 'status');
  live.style.cssText = HIDDEN;
  root.append(content, live);

  let current = 0;
  const show = async (navigation: string | undefined) => {
    const request = ++current;
    const response = await fetch(fragmentUrl(block, navigation));
    if (!response.ok) throw Error(`${response.status}`);
    const html = await response.text();
    // A later navigation has already asked for another page: this answer is stale.
    if (request !== current) return undefined;
    const section = render(root, content, html);
    markVotes(env, root);
    return section;
  };

  const section = await show(undefined).catch((err: unknown) => {
    console.warn(`${ctx.brandName}: ${String(err)}`);
    return null;
  });
  const empty = !section || section.classList.contains('pr--empty') || section.dataset.count === '0';
  if (empty) {
    // Nothing to show (no reviews yet, or none could be loaded): the shop may hide it (`[data-empty]{display:none}`).
    host.setAttribute('data-empty', '');
    if (reserved) host.style.minHeight = '';
    if (!section) return false;
  }

  const navigate = (navigation: string) =>
    show(navigation)
      .then((next) => {
        if (!next) return;
        // The section's heading, or the section itself, named by its label.
        const heading = next.querySelector<HTMLElement>('h2,h3,[role=heading]');
        const target = heading ?? next;
        target.tabIndex = -1;
        target.focus();
        // Its name, then what the fragment says about the filter's results, then the page.
        const name = heading?.textContent ?? next.getAttribute('aria-label') ?? '';
        const status = next.querySelector('[role=status]')?.textContent ?? '';
        live.textContent = announcement(env.lang, [name, status], next.dataset.page, next.dataset.pages);
      })
      .catch((err: unknown) => console.warn(`${ctx.brandName}: ${String(err)}`));

  root.addEventListener('click', (event) => {
    const mouse = event as MouseEvent;
    const target = event.target as Element;
    const link = target.closest<HTMLAnchorElement>('a[data-query]');
    if (link && !(mouse.button || mouse.ctrlKey || mouse.metaKey || mouse.shiftKey || mouse.altKey)) {
      event.preventDefault();
      void navigate(link.dataset.query ?? '');
      return;
    }
    const vote = target.closest<HTMLButtonElement>('button[data-helpful]');
    if (vote) void helpful(env, vote);
  });
  root.addEventListener('submit', (event) => {
    const form = event.target as HTMLFormElement;
    if (!form.matches('form[data-product-filter]')) return;
    event.preventDefault();
    const fields = new URLSearchParams();
    for (const [name, value] of new FormData(form)) if (typeof value === 'string') fields.append(name, value);
    void navigate(fields.toString());
  });
  return !empty;
}

/**
 * Puts a fragment in the shadow root: its `<style>` becomes a constructed style sheet (a page's Content Security
 * Policy does not count those as inline style, as for the sidebar), the rest replaces the block's content.
 */
function render(root: ShadowRoot, content: HTMLElement, html: string): HTMLElement | null {
  const template = document.createElement('template');
  // Our own server's fragment, every text in it escaped there; a template parses it inert (nothing runs).
  template.innerHTML = html;
  const styles = [...template.content.querySelectorAll('style')];
  const css = styles.map((style) => style.textContent ?? '').join('\n');
  for (const style of styles) style.remove();
  try {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    root.adoptedStyleSheets = [sheet];
  } catch {
    const style = document.createElement('style');
    style.textContent = css;
    template.content.prepend(style);
  }
  content.replaceChildren(template.content);
  return content.querySelector<HTMLElement>('section.pr');
}

const storageKey = (env: Env) => `_${env.ctx.brand}_helpful`;

function votes(env: Env): number[] {
  try {
    return votesOf(env.storage()?.getItem(storageKey(env)) ?? null);
  } catch {
    return [];
  }
}

/** The buttons of reviews this browser already found helpful show it. */
function markVotes(env: Env, root: ShadowRoot): void {
  const voted = new Set(votes(env));
  for (const button of root.querySelectorAll<HTMLButtonElement>('button[data-helpful]')) {
    if (voted.has(Number(button.dataset.helpful))) button.setAttribute('aria-pressed', 'true');
  }
}

/**
 * A "Helpful" vote (POST /reviews/{id}/helpful, server/helpful/routes.ts), once per browser: the server counts one
 * per address anyway. Its JSON answer carries the new count.
 */
async function helpful(env: Env, button: HTMLButtonElement): Promise<void> {
  const id = Number(button.dataset.helpful);
  if (!Number.isSafeInteger(id) || id <= 0 || votes(env).includes(id) || button.dataset.busy) return;
  button.dataset.busy = '1';
  try {
    const response = await fetch(`${env.ctx.base}/reviews/${id}/helpful`, {
      method: 'POST',
      headers: { accept: 'application/json' },
      body: new URLSearchParams({ lang: env.lang }),
    });
    if (!response.ok) return;
    const answer = (await response.json()) as { helpful?: unknown };
    try {
      const storage = env.storage();
      storage?.setItem(storageKey(env), withVote(storage.getItem(storageKey(env)), id));
    } catch {
      // Storage refused (private mode): the address still counts once.
    }
    button.setAttribute('aria-pressed', 'true');
    // The button says "Helpful (3)": the new count replaces the old one.
    if (typeof answer.helpful === 'number') {
      button.textContent = (button.textContent ?? '').replace(/\(\d+\)\s*$/, `(${answer.helpful})`);
    }
  } catch (err) {
    console.warn(`${env.ctx.brandName}: ${String(err)}`);
  } finally {
    delete button.dataset.busy;
  }
}

/**
 * The product's JSON-LD in the host page's <head>, once: a script of ours already there for this product is kept,
 * one for another product (a single-page app moved on) is replaced. Built with textContent from the server's JSON,
 * whose strings the server escaped for use inside <script>. Nothing for a product without reviews (404).
 */
async function addJsonLd(env: Env, product: string): Promise<void> {
  const mark = `data-${env.ctx.brand}-jsonld`;
  const ours = () => document.head.querySelector<HTMLScriptElement>(`script[${mark}]`);
  if (ours()?.getAttribute(mark) === product) return;
  try {
    const response = await fetch(jsonLdUrl({ base: env.ctx.base, shopId: env.ctx.id, product }));
    if (!response.ok) return;
    const text = await response.text();
    if (!isJsonLd(text)) return;
    // (Checked again: another run may have added it while this one waited.)
    const existing = ours();
    if (existing?.getAttribute(mark) === product) return;
    const script = document.createElement('script');
    script.type = 'application/ld+json';
    script.setAttribute(mark, product);
    script.textContent = text;
    existing?.remove();
    document.head.append(script);
  } catch (err) {
    console.warn(`${env.ctx.brandName}: ${String(err)}`);
  }
}
