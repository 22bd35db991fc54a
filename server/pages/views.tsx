// The shopper pages as functions from their data to HTML: the review form, the edit form, the confirmation page,
// the messages for links that no longer work, and the public shop page.
import type { Badge } from '../reviews/rules.js';
import type { Language } from '../languages.js';
import type { Rating } from '../reviews/rating.js';
import { ErrorSummary, PAGE_LOOK, renderDocument, ReviewForm, ShownStars, type ReviewFormProps } from './components.js';
import type { FieldProblem } from './form.js';
import { shopJsonLd, type ShopForJsonLd } from './html.js';
import type { PageStrings } from './strings.js';
import { localeFor } from '../../widget/strings.js';
import { PHOTO_STRINGS, type PhotoStrings } from '../photos/strings.js';
import { ExperienceDate, OriginBadges, Reply, ReviewPhotos } from '../review-view/parts.js';
import { inlineScript } from '../http/inline-script.js';
import { HELPFUL_STRINGS } from '../helpful/strings.js';
import { SORTS, type Listing } from './listing.js';
import { LISTING_STRINGS, type ListingStrings } from './listing-strings.js';

export interface PageFrame {
  t: PageStrings;
  lang: Language;
  brandName: string;
}

const titled = (frame: PageFrame, title: string, problems: FieldProblem[] = []) =>
  `${problems.length ? `${frame.t.errorTitle}: ` : ''}${title} | ${frame.brandName}`;

export function messagePage(
  frame: PageFrame,
  title: string,
  body: string,
  link?: { href: string; text: string },
): string {
  return renderDocument({
    lang: frame.lang,
    title: titled(frame, title),
    footer: frame.t.footer(frame.brandName),
    children: (
      <>
        <h1>{title}</h1>
        <p>{body}</p>
        {link ? (
          <p>
            <a href={link.href}>{link.text}</a>
          </p>
        ) : null}
      </>
    ),
  });
}

export function reviewPage(frame: PageFrame, shopName: string, form: Omit<ReviewFormProps, 't' | 'submit'>): string {
  const { t } = frame;
  return renderDocument({
    lang: frame.lang,
    title: titled(frame, t.reviewTitle(shopName), form.problems),
    footer: t.footer(frame.brandName),
    children: (
      <>
        <h1>{t.reviewTitle(shopName)}</h1>
        <p>{t.reviewIntro(shopName)}</p>
        <ErrorSummary problems={form.problems} t={t} />
        <ReviewForm {...form} t={t} submit={t.submit} />
      </>
    ),
  });
}

export function editPage(
  frame: PageFrame,
  shopName: string,
  form: Omit<ReviewFormProps, 't' | 'submit'>,
  saved: boolean,
  /** The link to deleting the review (pages/writer.ts). */
  deleteLink?: { href: string; text: string },
): string {
  const { t } = frame;
  return renderDocument({
    lang: frame.lang,
    title: titled(frame, t.editTitle(shopName), form.problems),
    footer: t.footer(frame.brandName),
    children: (
      <>
        <h1>{t.editTitle(shopName)}</h1>
        {saved ? (
          <p class="notice" role="status">
            {t.editSaved}
          </p>
        ) : (
          <p>{t.editIntro}</p>
        )}
        <ErrorSummary problems={form.problems} t={t} />
        <ReviewForm {...form} t={t} submit={t.editSave} />
        {deleteLink ? (
          <p>
            <a href={deleteLink.href}>{deleteLink.text}</a>
          </p>
        ) : null}
      </>
    ),
  });
}

export function confirmPage(
  frame: PageFrame,
  shopName: string,
  review: { name: string; rating: number; comment: string | null },
): string {
  const { t } = frame;
  return renderDocument({
    lang: frame.lang,
    title: titled(frame, t.confirmTitle),
    footer: t.footer(frame.brandName),
    children: (
      <>
        <h1>{t.confirmTitle}</h1>
        <p>{t.confirmBody(shopName)}</p>
        <article class="card review" aria-labelledby="confirm-name">
          <header>
            <h2 id="confirm-name">{review.name}</h2>
            <ShownStars value={review.rating} t={t} />
          </header>
          {review.comment ? <p class="text">{review.comment}</p> : null}
        </article>
        {/* A POST, because mail scanners open every GET link in an e-mail. */}
        <form method="post">
          <button type="submit">{t.confirmButton}</button>
        </form>
      </>
    ),
  });
}

interface ShopPageData {
  shop: ShopForJsonLd & { id: number };
  pageUrl: string;
  score: number;
  count: number;
  badges: Badge[];
  reviews: { rating: Rating; verified: boolean }[];
  page: number;
  pages: number;
  /** Link to another page of reviews. */
  hrefFor: (page: number) => string;
  /** This page's own address (path and query): where the Helpful form returns. */
  selfHref: string;
  /** The shopper's sort and filter (listing.ts). */
  listing: {
    chosen: Listing;
    /** How many reviews the filter kept; null without a filter. */
    matching: number | null;
    resetHref: string;
    lang: string | undefined;
    /** False for a shop too large to sort in memory. */
    offered: boolean;
  };
}

/** A GET form, so that the choice is in the address (and in the paging links); it works without JavaScript. */
function ListingForm({ l, lang, listing }: { l: ListingStrings; lang: Language; listing: ShopPageData['listing'] }) {
  const { chosen } = listing;
  return (
    <form method="get" class="card listing" aria-label={l.form}>
      {listing.lang ? <input type="hidden" name="lang" value={lang} /> : null}
      <div class="field">
        <label for="sort">{l.sort}</label>
        <select id="sort" name="sort">
          {SORTS.map((s) => (
            <option value={s} selected={chosen.sort === s}>
              {l.sorts[s]}
            </option>
          ))}
        </select>
      </div>
      <fieldset>
        <legend>{l.stars}</legend>
        <div class="choices">
          {[5, 4, 3, 2, 1].map((n) => (
            <label>
              <input type="checkbox" name="stars" value={String(n)} checked={chosen.stars.includes(n)} /> {l.star(n)}
            </label>
          ))}
        </div>
      </fieldset>
      <div class="choices">
        <label>
          <input type="checkbox" name="photos" value="1" checked={chosen.photos} /> {l.photos}
        </label>
      </div>
      <div class="choices">
        <button type="submit">{l.apply}</button>
        <a href={listing.resetHref}>{l.reset}</a>
      </div>
      {listing.matching !== null ? (
        <p role="status">{listing.matching ? l.matching(listing.matching) : l.none}</p>
      ) : null}
    </form>
  );
}

/** Same-origin paths: the page's CSP allows its own images, and a test server's address needs no https. */
const pathOf = (url: string) => new URL(url, 'http://x').pathname;

/**
 * The review's photos: the page's script opens each in the dialog below (PhotoDialog), the link alone without
 * JavaScript.
 */
function PagePhotos({ rating: r, lang }: { rating: Rating; lang: Language }) {
  const photos = r.photos.map((photo) => ({ ...photo, url: pathOf(photo.url), thumb_url: pathOf(photo.thumb_url) }));
  const owner = r.name.trim() || localeFor(lang).t.anonymous;
  return <ReviewPhotos photos={photos} owner={owner} lang={lang} opens="dialog" look={PAGE_LOOK} />;
}

const longDates = new Map<Language, Intl.DateTimeFormat>();

/** `YYYY-MM-DD` as the pages write a date ("14 March 2026"); one formatter per language, made once. */
function longDate(lang: Language, ymd: string): string {
  let format = longDates.get(lang);
  if (!format) {
    format = new Intl.DateTimeFormat(lang, { dateStyle: 'long', timeZone: 'UTC' });
    longDates.set(lang, format);
  }
  return format.format(new Date(`${ymd}T00:00:00Z`));
}

/** A review's header on the shop page (`h3` under the list's `h2`) and on its own page (`h1`). */
function ReviewHeader({
  rating: r,
  name,
  heading: Heading,
  frame,
}: {
  rating: Rating;
  /** The writer's name as the page shows it. */
  name: string;
  heading: 'h1' | 'h3';
  frame: PageFrame;
}) {
  return (
    <header>
      <Heading id={`review-${r.id}`}>{name}</Heading>
      <ShownStars value={r.rating} t={frame.t} />
      <time datetime={r.date}>{longDate(frame.lang, r.date)}</time>
      <span>
        <ExperienceDate value={r.experience_date} lang={frame.lang} />
      </span>
      <OriginBadges review={r} lang={frame.lang} look={PAGE_LOOK} />
    </header>
  );
}

/**
 * "Helpful": a small POST form that returns to this page (no JavaScript needed); the page's script sends it in the
 * background instead and remembers the vote in the browser's storage.
 */
function HelpfulForm({ rating: r, lang, back }: { rating: Rating; lang: Language; back: string }) {
  const h = HELPFUL_STRINGS[lang];
  const n = r.helpful ?? 0;
  return (
    <form method="post" action={`/reviews/${r.id}/helpful`} class="helpful" data-review={r.id}>
      <input type="hidden" name="return" value={back} />
      <input type="hidden" name="lang" value={lang} />
      <button type="submit" aria-describedby={`helpful-${r.id}`}>
        {h.button}
      </button>
      <span id={`helpful-${r.id}`} class="hint" data-count="">
        {h.count(n)}
      </span>
    </form>
  );
}

/** One dialog for the page: the script fills it with the photo opened, Escape closes it, focus goes back. */
function PhotoDialog({ p }: { p: PhotoStrings }) {
  return (
    <dialog id="photo-dialog" class="photo-dialog" aria-label={p.dialog}>
      <form method="dialog">
        <button type="submit" class="close">
          {p.close}
        </button>
      </form>
      <img alt="" />
    </dialog>
  );
}

export function shopPage(frame: PageFrame, data: ShopPageData): string {
  const { t, lang } = frame;
  const number = new Intl.NumberFormat(lang, { maximumFractionDigits: 1 });
  const badgeText = (b: Badge) =>
    b.key === 'approved'
      ? t.badgeApproved(longDate(lang, b.since))
      : b.key === 'verified_share'
        ? t.badgeVerifiedShare(b.value)
        : t.badgeMemberYears(b.value);
  const { shop } = data;
  return renderDocument({
    lang,
    title: titled(frame, t.shopTitle(shop.name)),
    footer: t.footer(frame.brandName),
    jsonLd: shopJsonLd(shop, data.pageUrl, data.score, data.count),
    children: (
      <>
        {shop.logo ? <img class="logo" src={shop.logo} alt="" /> : null}
        <h1>{t.shopTitle(shop.name)}</h1>
        <section class="card" aria-label={t.score}>
          <div class="summary">
            <span class="score">{t.outOf10(number.format(data.score))}</span>
            <span>{t.reviewCount(data.count, number.format(data.count))}</span>
            <a href={shop.url} rel="nofollow noopener">
              {t.visitShop(shop.name)}
            </a>
            <a href={`${data.pageUrl}/policy?lang=${lang}`}>{localeFor(lang).t.policy}</a>
          </div>
          {data.badges.length ? (
            <ul class="badges">
              {data.badges.map((b) => (
                <li>{badgeText(b)}</li>
              ))}
            </ul>
          ) : null}
        </section>
        <h2>{t.reviewCount(data.count, number.format(data.count))}</h2>
        {data.count > 0 && data.listing.offered ? (
          <ListingForm l={LISTING_STRINGS[lang]} lang={lang} listing={data.listing} />
        ) : null}
        {data.reviews.length === 0 && data.listing.matching === null ? <p>{t.noReviews}</p> : null}
        {data.reviews.map(({ rating: r }) => (
          <article class="card review" aria-labelledby={`review-${r.id}`}>
            <ReviewHeader rating={r} name={r.name.trim() || localeFor(lang).t.anonymous} heading="h3" frame={frame} />
            {r.comment ? <p class="text">{r.comment}</p> : null}
            {r.photos.length ? <PagePhotos rating={r} lang={lang} /> : null}
            <HelpfulForm rating={r} lang={lang} back={data.selfHref} />
            {r.reply ? <Reply from={t.replyFrom(shop.name)} text={r.reply} heading="h4" look={PAGE_LOOK} /> : null}
            <p>
              <a href={`/reviews/${r.id}/report?lang=${lang}`}>
                {localeFor(lang).t.report}
                <span class="sr">: {localeFor(lang).t.reportWhose(r.name.trim() || localeFor(lang).t.anonymous)}</span>
              </a>
            </p>
          </article>
        ))}
        {data.reviews.some(({ rating }) => rating.photos.length) ? <PhotoDialog p={PHOTO_STRINGS[lang]} /> : null}
        {data.reviews.length ? (
          // Opens photos in the dialog and votes without leaving the page (server/pages/browser/review-form.ts).
          <script dangerouslySetInnerHTML={{ __html: inlineScript('review-form').source }} />
        ) : null}
        {data.pages > 1 ? (
          <nav class="pages" aria-label={t.pagination}>
            {data.page > 1 ? <a href={data.hrefFor(data.page - 1)}>{t.newer}</a> : <span />}
            <span>{t.pageOf(data.page, data.pages)}</span>
            {data.page < data.pages ? <a href={data.hrefFor(data.page + 1)}>{t.older}</a> : <span />}
          </nav>
        ) : null}
      </>
    ),
  });
}

/** A product of the review as its own page shows it: the product's name, and its own score and text when given. */
export interface PageProduct {
  name: string;
  rating: number | null;
  content: string;
}

/**
 * One published review on a page of its own (`/webshops/{id}/reviews/{rid}`): the `review_url` Google's product
 * review feed gives for it (type `singleton`). The shop page's markup for one review, with its products' own
 * scores and texts, and a link back to all the shop's reviews. No structured data: Google shows no stars for a
 * business's reviews of itself (docs/google.md).
 */
export function singleReviewPage(
  frame: PageFrame,
  data: { shop: ShopForJsonLd & { id: number }; rating: Rating; products: PageProduct[]; shopPageUrl: string },
): string {
  const { t, lang } = frame;
  const { shop, rating: r } = data;
  const who = r.name.trim() || localeFor(lang).t.anonymous;
  return renderDocument({
    lang,
    title: titled(frame, `${who}: ${t.shopTitle(shop.name)}`),
    footer: t.footer(frame.brandName),
    children: (
      <>
        <p>
          <a href={data.shopPageUrl}>{t.shopTitle(shop.name)}</a>
        </p>
        <article class="card review" aria-labelledby={`review-${r.id}`}>
          <ReviewHeader rating={r} name={who} heading="h1" frame={frame} />
          {r.comment ? <p class="text">{r.comment}</p> : null}
          {data.products.map((p) => (
            <section aria-label={p.name}>
              <h2>{p.name}</h2>
              {p.rating ? <ShownStars value={p.rating} t={t} /> : null}
              {p.content ? <p class="text">{p.content}</p> : null}
            </section>
          ))}
          {r.photos.length ? <PagePhotos rating={r} lang={lang} /> : null}
          {r.reply ? <Reply from={t.replyFrom(shop.name)} text={r.reply} heading="h2" look={PAGE_LOOK} /> : null}
        </article>
      </>
    ),
  });
}
