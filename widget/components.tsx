// Building blocks shared by the layouts. Everything here is rendered on the server; text goes through Preact,
// which escapes it, and nothing uses inline style attributes (the page's CSP allows none).
import type { ComponentChildren } from 'preact';
import type { Locale } from './strings.js';

export interface WidgetReview {
  id: number;
  name: string;
  /** Overall score 1–5. */
  rating: number;
  comment: string | null;
  date: Date;
  reply: string | null;
  /** How the review was checked (issue 11); older cached data may lack it. */
  origin?: 'verified_order' | 'email_confirmed' | 'imported';
  incentivised?: boolean;
  /** Imports: the platform the review came from. */
  importedFrom?: string | null;
  /** Issue 20: its shown photos' thumbnails, only when the snippet asks for them (`photos=yes`). */
  photos?: { thumb: string; alt: string }[];
  /** Issue 21: when the experience took place (`YYYY-MM-DD`, or `YYYY-MM`); older cached data may lack it. */
  experienceDate?: string;
}

export interface WidgetData {
  shopName: string;
  /** The shop's public review page, opened in a new tab. */
  pageUrl: string;
  /** The shop's review policy page ("How reviews are checked"), opened in a new tab. */
  policyUrl: string;
  /** The service's own address: a review's report form is `{serviceUrl}/reviews/{id}/report`. */
  serviceUrl: string;
  brandName: string;
  /** Average on the 1–10 scale (0 without reviews). */
  score: number;
  count: number;
  /** Published reviews, newest first, at most `amount`. */
  reviews: WidgetReview[];
}

/**
 * Five stars filled to the value (rounded to half stars), named for assistive technology; `hidden` inside a link,
 * whose name says the score in words and must start with the link's visible text (WCAG 2.5.3).
 */
export function Stars({ value, locale, hidden }: { value: number; locale: Locale; hidden?: boolean }) {
  const step = Math.max(0, Math.min(10, Math.round(value * 2)));
  return (
    // biome-ignore lint/a11y/useAriaPropsSupportedByRole: the label is set only when the role is img
    <span
      class={`st s${step}`}
      role={hidden ? undefined : 'img'}
      aria-label={hidden ? undefined : locale.t.outOf(locale.number(value), '5')}
      aria-hidden={hidden ? 'true' : undefined}
    >
      ★★★★★
    </span>
  );
}

/** Microdata for search engines: the shop's average on the 1–10 scale and the count of published reviews. */
function AggregateRating({ data }: { data: WidgetData }) {
  if (data.count === 0) return null;
  return (
    <span itemprop="aggregateRating" itemscope itemtype="https://schema.org/AggregateRating">
      <meta itemprop="ratingValue" content={String(data.score)} />
      <meta itemprop="bestRating" content="10" />
      <meta itemprop="worstRating" content="1" />
      <meta itemprop="ratingCount" content={String(data.count)} />
    </span>
  );
}

/** The item the rating is about. */
export function Organization({
  data,
  class: className,
  children,
}: {
  data: WidgetData;
  class: string;
  children: ComponentChildren;
}) {
  return (
    <div class={className} itemscope itemtype="https://schema.org/Organization">
      <meta itemprop="name" content={data.shopName} />
      <AggregateRating data={data} />
      {children}
    </div>
  );
}

/** A link to the shop's public page, in a new tab (and saying so to screen readers). */
export function PageLink({
  data,
  locale,
  class: className,
  children,
}: {
  data: WidgetData;
  locale: Locale;
  class?: string;
  children: ComponentChildren;
}) {
  return (
    <a class={className} href={data.pageUrl} target="_blank" rel="noopener">
      {children}
      <span class="sr"> {locale.t.newTab}</span>
    </a>
  );
}

/**
 * "How reviews are checked": the shop's review policy page, in a new tab. Every layout shows it as an "i" in its
 * top right corner (drawn by CSS, so the name starts with what is seen), named in words: it takes no room from
 * the layouts' documented heights, which merchants' snippets already carry.
 */
export function PolicyLink({ data, locale }: { data: WidgetData; locale: Locale }) {
  return (
    <a class="pl" href={data.policyUrl} target="_blank" rel="noopener" title={locale.t.policy}>
      <span class="sr">
        {locale.t.policy} {locale.t.newTab}
      </span>
    </a>
  );
}

/** The label of a review's origin and what it means (the meaning for screen readers; the policy page explains). */
function originLabel(review: WidgetReview, t: Locale['t']): [string, string] {
  if (review.origin === 'verified_order') return [t.verifiedOrder, t.verifiedOrderInfo];
  if (review.origin === 'imported')
    return [review.importedFrom ? t.importedFrom(review.importedFrom) : t.imported, t.importedInfo];
  return [t.emailConfirmed, t.emailConfirmedInfo];
}

/** The review's labels and its report link (the form opens in a new tab: the widget is a small iframe). */
function ReviewLabels({ review, data, locale }: { review: WidgetReview; data: WidgetData; locale: Locale }) {
  const t = locale.t;
  const [label, info] = originLabel(review, t);
  return (
    <p class="lb">
      <span title={`${label}: ${info}`}>
        {label}
        <span class="sr"> ({info})</span>
      </span>
      {review.incentivised ? (
        <span title={`${t.incentivised}: ${t.incentivisedInfo}`}>
          {t.incentivised}
          <span class="sr"> ({t.incentivisedInfo})</span>
        </span>
      ) : null}
      <a href={`${data.serviceUrl}/reviews/${review.id}/report`} target="_blank" rel="noopener nofollow">
        {t.report}
        <span class="sr">
          : {t.reportWhose(review.name.trim() || t.anonymous)} {t.newTab}
        </span>
      </a>
    </p>
  );
}

/**
 * "Experience: March 2026" (issue 21), a small line under the review's date: the month only, since a form review's
 * writer names no day. Its own line, so that it shows whole at a layout's narrowest width (in the labels' line it was
 * cut off there).
 */
function Experience({ date, locale }: { date: string; locale: Locale }) {
  const text = locale.t.experience(locale.month(date));
  return (
    // A label line, not a paragraph (no paragraph spacing under WCAG 1.4.12's text spacing).
    <div class="ex">
      <time datetime={date}>{text}</time>
    </div>
  );
}

/** The score on the 1–10 scale: the number is shown, "9.2 out of 10" is read. */
export function Score({ data, locale, class: className }: { data: WidgetData; locale: Locale; class?: string }) {
  const value = locale.number(data.score);
  return (
    <span class={className}>
      <span aria-hidden="true">{value}</span>
      <span class="sr">{locale.t.outOf(value, '10')}</span>
    </span>
  );
}

/** The service's mark: decorative, since the links that show it name what matters in words. */
export function Logo() {
  return (
    <svg class="lg" viewBox="0 0 24 24" aria-hidden="true">
      <path
        fill-rule="evenodd"
        d="M3 3h18a1 1 0 0 1 1 1v13a1 1 0 0 1-1 1h-8l-5 4v-4H3a1 1 0 0 1-1-1V4a1 1 0 0 1 1-1zm9 2.5-1.29 3.22-3.47.23 2.67 2.23-.85 3.37L12 12.7l2.94 1.85-.85-3.37 2.67-2.23-3.47-.23z"
      />
    </svg>
  );
}

/** At most two lines of a review and two of a reply (one in a slide) show; the rest need not travel (the full text is on the shop's page). */
const COMMENT_MAX = 500;
const REPLY_MAX = 300;

/** Cuts text to `max` characters at a word boundary, with an ellipsis. */
function truncate(text: string, max: number): string {
  const clean = text.trim();
  if (clean.length <= max) return clean;
  const cut = clean.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

function isoDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}

function Review({
  review,
  data,
  locale,
  slide,
}: {
  review: WidgetReview;
  data: WidgetData;
  locale: Locale;
  slide?: { index: number; total: number };
}) {
  // In a list a review is a list item; in the slider it is a slide ("2 of 5").
  const Tag = slide ? 'div' : 'li';
  const label = slide ? locale.t.slideOf(slide.index, slide.total) : undefined;
  return (
    <Tag
      class="rv"
      role={slide ? 'group' : undefined}
      aria-roledescription={slide ? 'slide' : undefined}
      aria-label={label}
    >
      <div class="rh">
        <Stars value={review.rating} locale={locale} />
        <b>{review.name.trim() || locale.t.anonymous}</b>
        <time class="mu" datetime={isoDate(review.date)}>
          {locale.date(review.date)}
        </time>
      </div>
      {review.experienceDate ? <Experience date={review.experienceDate} locale={locale} /> : null}
      {/* Above the text: under wider text spacing (WCAG 1.4.12) the clamped text gives way, not the labels. */}
      <ReviewLabels review={review} data={data} locale={locale} />
      {review.comment ? <p class="rc">{truncate(review.comment, COMMENT_MAX)}</p> : null}
      {review.photos?.length ? <Thumbnails review={review} data={data} locale={locale} /> : null}
      {review.reply ? (
        <p class="rp">
          <b>{locale.t.replyFrom(data.shopName)}:</b> {truncate(review.reply, REPLY_MAX)}
        </p>
      ) : null}
    </Tag>
  );
}

/** The side of a widget thumbnail (px): a fixed box, so nothing moves when the image arrives. */
const THUMB_SIDE = 56;

/**
 * A review's photos as small thumbnails, each opening the review on the shop's page in a new tab: a dialog inside a
 * frame a few hundred pixels high would be unusable.
 */
function Thumbnails({ review, data, locale }: { review: WidgetReview; data: WidgetData; locale: Locale }) {
  return (
    <p class="ph">
      {review.photos!.map((photo, i) => (
        <a key={i} href={`${data.pageUrl}#review-${review.id}`} target="_blank" rel="noopener">
          <img
            src={photo.thumb}
            alt={`${photo.alt} ${locale.t.newTab}`}
            width={THUMB_SIDE}
            height={THUMB_SIDE}
            loading="lazy"
          />
        </a>
      ))}
    </p>
  );
}

export function ReviewList({ data, locale }: { data: WidgetData; locale: Locale }) {
  if (data.reviews.length === 0) return <p class="em mu">{locale.t.noReviews}</p>;
  return (
    <ul class="rl" aria-label={locale.t.carousel}>
      {data.reviews.map((r) => (
        <Review key={r.id} review={r} data={data} locale={locale} />
      ))}
    </ul>
  );
}

/**
 * Reviews one at a time. Without JavaScript the first review shows; widget/assets/slider.js reveals the
 * controls and moves the track every `interval` ms, pausing on hover, focus and reduced motion.
 */
export function ReviewSlider({ data, locale, interval }: { data: WidgetData; locale: Locale; interval: number }) {
  const total = data.reviews.length;
  if (total === 0) return <p class="em mu">{locale.t.noReviews}</p>;
  if (total === 1) return <ReviewList data={data} locale={locale} />;
  const t = locale.t;
  return (
    <section
      class="sl"
      aria-roledescription="carousel"
      aria-label={t.carousel}
      data-slider
      data-interval={String(interval)}
    >
      <div class="vp">
        <div class="tr" aria-live="off">
          {data.reviews.map((r, i) => (
            <Review key={r.id} review={r} data={data} locale={locale} slide={{ index: i + 1, total }} />
          ))}
        </div>
      </div>
      <div class="ct" hidden>
        <button type="button" data-go="-1" aria-label={t.previous}>
          <span aria-hidden="true">‹</span>
        </button>
        <span aria-hidden="true" data-pos>{`1 / ${total}`}</span>
        <button type="button" data-pause aria-label={t.pause} data-play-label={t.play} data-pause-label={t.pause}>
          <span aria-hidden="true">❚❚</span>
        </button>
        <button type="button" data-go="1" aria-label={t.next}>
          <span aria-hidden="true">›</span>
        </button>
      </div>
    </section>
  );
}
