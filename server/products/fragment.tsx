// The product's reviews as an HTML fragment (issue 22): what the loader's lazily loaded chunk puts into a shadow
// root on the shop's product page, and what the widget's product layout shows in its iframe. Server-rendered, so the
// page needs no template code: a <style> element (scoped by the shadow root; both themes), then one <section class="pr">
// whose data-* attributes give the figures. Everything shown is escaped by the renderer. Links carry the whole
// fragment address (they work without JavaScript) and `data-query`, the listing's part, for the chunk.
import { renderToString } from 'preact-render-to-string';
import { localeFor } from '../../widget/strings.js';
import { HELPFUL_STRINGS } from '../helpful/strings.js';
import type { Language } from '../languages.js';
import { SORTS, type Listing } from '../pages/listing.js';
import { LISTING_STRINGS } from '../pages/listing-strings.js';
import { ExperienceDate, OriginBadges, Reply, ReviewPhotos, Stars, type ReviewLook } from '../review-view/parts.js';
import { PAGE_SIZE, type Aggregate, type ProductEntry, type ProductReview } from './rules.js';
import { PRODUCT_STRINGS } from './strings.js';

export const THEMES = ['light', 'dark'] as const;
type Theme = (typeof THEMES)[number];

/** Where the fragment's links and its filter form lead. */
export interface FragmentNav {
  /** The address showing this listing query (`page=2&sort=newest`; '' for the defaults). */
  href(query: string): string;
  /** The filter form's action, and the fields it carries unchanged (product, lang, theme). */
  action: string;
  fixed: Record<string, string>;
}

export interface FragmentData {
  lang: Language;
  theme: Theme;
  shopName: string;
  /** Undefined: the shop has no reviews of the product asked for. */
  product: ProductEntry | undefined;
  aggregate: Aggregate;
  /** The reviews the listing kept, in its order (rules.ts listProductReviews). */
  listed: readonly ProductReview[];
  listing: Listing;
  /** The page asked for (clamped here). */
  page: number;
  helpful: ReadonlyMap<number, number>;
  nav: FragmentNav;
  /**
   * `button`: a "Helpful" button the product block's script sends; `text`: the count only (the widget's iframe
   * runs no script).
   */
  votes: 'button' | 'text';
}

// Colours: the text at 4.5:1 or more on its background in both themes (WCAG AA), the stars at 3:1 or more.
export const FRAGMENT_CSS =
  `.pr{--fg:#1f2328;--muted:#57606a;--bg:#fff;--soft:#f6f8fa;--line:#d0d7de;--accent:#0a58ca;--star:#9a6700;` +
  `color:var(--fg);background:var(--bg);font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;` +
  `padding:12px;box-sizing:border-box;max-width:100%;overflow-wrap:anywhere}` +
  `.pr[data-theme=dark]{--fg:#e6edf3;--muted:#b1bac4;--bg:#0d1117;--soft:#161b22;--line:#3d444d;--accent:#79b8ff;--star:#e3b341}` +
  `.pr *{box-sizing:border-box}.pr a{color:var(--accent)}.pr-sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}` +
  `.pr-head{display:flex;flex-wrap:wrap;align-items:baseline;gap:4px 12px;margin:0 0 12px}` +
  `.pr-avg{font-size:1.6em;font-weight:700}.pr-muted,.pr time{color:var(--muted)}` +
  `.pr-stars{color:var(--star);letter-spacing:1px}.pr-off{color:var(--line)}` +
  `.pr-filter{display:flex;flex-wrap:wrap;align-items:center;gap:8px 16px;margin:0 0 12px;padding:8px;border:1px solid var(--line);border-radius:8px;background:var(--soft)}` +
  `.pr-filter fieldset{border:0;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:4px 12px}.pr-filter legend{float:left;margin-right:8px}` +
  `.pr select,.pr button{font:inherit;color:var(--fg);background:var(--bg);border:1px solid var(--muted);border-radius:6px;padding:4px 10px;min-height:32px}` +
  `.pr button[aria-pressed=true]{background:var(--accent);color:var(--bg)}` +
  `.pr-list{list-style:none;margin:0;padding:0}.pr-review{border-top:1px solid var(--line);padding:12px 0}` +
  `.pr-meta{display:flex;flex-wrap:wrap;gap:4px 12px;align-items:baseline}.pr-title{font-size:1em;margin:4px 0}` +
  `.pr-text{margin:4px 0;white-space:pre-line}.pr-labels{display:flex;flex-wrap:wrap;gap:4px 8px;margin:4px 0;font-size:.9em}` +
  `.pr-badge{border:1px solid var(--line);border-radius:999px;padding:0 8px}` +
  `.pr-photos{list-style:none;display:flex;flex-wrap:wrap;gap:8px;margin:8px 0;padding:0}` +
  `.pr-photos img{display:block;max-width:96px;height:auto;border-radius:6px;border:1px solid var(--line)}` +
  `.pr-reply{margin:8px 0 0 12px;padding:8px 12px;border-left:3px solid var(--line);background:var(--soft)}.pr-reply p{margin:2px 0}` +
  `.pr-pages{display:flex;justify-content:space-between;align-items:center;gap:8px;border-top:1px solid var(--line);padding-top:12px}` +
  `.pr a:focus-visible,.pr button:focus-visible,.pr select:focus-visible,.pr input:focus-visible{outline:3px solid var(--accent);outline-offset:2px}`;

/** The review parts' classes in FRAGMENT_CSS. */
const LOOK: ReviewLook = {
  stars: 'pr-stars',
  off: 'pr-off',
  badge: 'pr-badge',
  sr: 'pr-sr',
  photos: 'pr-photos',
  reply: 'pr-reply',
  text: 'pr-text',
};

/** The listing's part of an address: `page=2&sort=newest&stars=1,2&photos=1` (values are digits and words). */
function listingQueryText(listing: Listing, page: number): string {
  return [
    `page=${page}`,
    `sort=${listing.sort}`,
    ...(listing.stars.length ? [`stars=${listing.stars.join(',')}`] : []),
    ...(listing.photos ? ['photos=1'] : []),
  ].join('&');
}

function Review({ review: r, data }: { review: ProductReview; data: FragmentData }) {
  const { lang } = data;
  const locale = localeFor(lang);
  const s = PRODUCT_STRINGS[lang];
  const name = r.name.trim() || locale.t.anonymous;
  const votes = r.reviewId === null ? 0 : (data.helpful.get(r.reviewId) ?? 0);
  return (
    <li class="pr-review">
      <div class="pr-meta">
        <Stars value={r.rating} label={s.stars(r.rating)} look={LOOK} />
        <strong>{name}</strong>
        <time datetime={r.date.toISOString().slice(0, 10)}>{locale.date(r.date)}</time>
      </div>
      {r.title ? <p class="pr-title">{r.title}</p> : null}
      {r.text ? <p class="pr-text">{r.text}</p> : null}
      <p class="pr-labels">
        <ExperienceDate value={r.experience_date} lang={lang} />
        <OriginBadges review={r} lang={lang} look={LOOK} />
      </p>
      {r.photos.length ? <ReviewPhotos photos={r.photos} owner={name} lang={lang} opens="tab" look={LOOK} /> : null}
      {r.reply ? <Reply from={locale.t.replyFrom(data.shopName)} text={r.reply} heading={null} look={LOOK} /> : null}
      {r.reviewId !== null && data.votes === 'button' ? (
        <p>
          <button type="button" data-helpful={String(r.reviewId)} aria-pressed="false">
            {`${HELPFUL_STRINGS[lang].button} (${votes})`}
          </button>
        </p>
      ) : null}
      {r.reviewId !== null && data.votes === 'text' && votes > 0 ? (
        <p class="pr-muted">{HELPFUL_STRINGS[lang].count(votes)}</p>
      ) : null}
    </li>
  );
}

function FilterForm({ data }: { data: FragmentData }) {
  const l = LISTING_STRINGS[data.lang];
  const { listing, nav } = data;
  return (
    <form data-product-filter="" method="get" action={nav.action} class="pr-filter" aria-label={l.form}>
      {Object.entries(nav.fixed).map(([name, value]) => (
        <input type="hidden" name={name} value={value} />
      ))}
      <label>
        {l.sort}{' '}
        <select name="sort">
          {SORTS.map((sort) => (
            <option value={sort} selected={listing.sort === sort}>
              {l.sorts[sort]}
            </option>
          ))}
        </select>
      </label>
      <fieldset>
        <legend>{l.stars}</legend>
        {[5, 4, 3, 2, 1].map((n) => (
          <label>
            <input type="checkbox" name="stars" value={String(n)} checked={listing.stars.includes(n)} /> {l.star(n)}
          </label>
        ))}
      </fieldset>
      <label>
        <input type="checkbox" name="photos" value="1" checked={listing.photos} /> {l.photos}
      </label>
      <button type="submit">{l.apply}</button>
      <a href={nav.href('')} data-query="">
        {l.reset}
      </a>
    </form>
  );
}

function Pages({ data, page, pages }: { data: FragmentData; page: number; pages: number }) {
  const s = PRODUCT_STRINGS[data.lang];
  const link = (to: number, text: string) => {
    const query = listingQueryText(data.listing, to);
    return (
      <a href={data.nav.href(query)} data-query={query}>
        {text}
      </a>
    );
  };
  return (
    <nav class="pr-pages" aria-label={s.pagination}>
      {page > 1 ? link(page - 1, s.previous) : <span />}
      <span>{s.pageOf(page, pages)}</span>
      {page < pages ? link(page + 1, s.next) : <span />}
    </nav>
  );
}

/** The fragment: its <style>, then the one <section class="pr">. */
export const renderFragment = (data: FragmentData): string => `<style>${FRAGMENT_CSS}</style>${renderSection(data)}`;

/** The <section class="pr"> alone (its styles are FRAGMENT_CSS). */
export function renderSection(data: FragmentData): string {
  const { lang, product, aggregate } = data;
  const s = PRODUCT_STRINGS[lang];
  const locale = localeFor(lang);
  if (!product || product.reviews.length === 0) {
    return renderToString(
      <section class="pr pr--empty" data-count="0" data-theme={data.theme} aria-label={s.label('')}>
        <p class="pr-muted">{s.empty}</p>
      </section>,
    );
  }
  const pages = Math.max(1, Math.ceil(data.listed.length / PAGE_SIZE));
  const page = Math.min(Math.max(1, data.page), pages);
  const shown = data.listed.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
  const l = LISTING_STRINGS[lang];
  const filtered = data.listing.stars.length > 0 || data.listing.photos;
  return renderToString(
    <section
      class="pr"
      data-count={String(aggregate.count)}
      data-average={aggregate.average.toFixed(1)}
      data-pages={String(pages)}
      data-page={String(page)}
      data-theme={data.theme}
      aria-label={s.label(product.info.name)}
    >
      <div class="pr-head">
        <span class="pr-avg">{locale.number(aggregate.average)}</span>
        <Stars value={aggregate.average} label={s.outOf(locale.number(aggregate.average))} look={LOOK} />
        <span class="pr-muted">{locale.reviewCount(aggregate.count)}</span>
      </div>
      <FilterForm data={data} />
      {filtered ? <p role="status">{data.listed.length ? l.matching(data.listed.length) : l.none}</p> : null}
      <ol class="pr-list">
        {shown.map((r) => (
          <Review review={r} data={data} />
        ))}
      </ol>
      {pages > 1 ? <Pages data={data} page={page} pages={pages} /> : null}
    </section>,
  );
}
