// The parts of one published review as the server renders it, shared by the shop's pages (server/pages/views.tsx)
// and the product block's fragment (server/products/fragment.tsx): stars, the experience date, the origin labels,
// the photos and the shop's reply. Each surface lays them out its own way and names its own classes (the fragment
// lives in a shadow root with `pr-` names and its own CSS), so the classes come in as a `ReviewLook`. Preact escapes
// every text and attribute; the photo addresses come from the server (reviews/photos.ts), never from the writer.
import { localeFor } from '../../widget/strings.js';
import type { Language } from '../languages.js';
import { PHOTO_STRINGS } from '../photos/strings.js';
import type { ReviewOrigin } from '../reviews/origin.js';

/** The class names a surface's stylesheet gives the parts. */
export interface ReviewLook {
  stars: string;
  /** The grey stars after the score. */
  off: string;
  badge: string;
  /** Visually hidden, read by screen readers. */
  sr: string;
  photos: string;
  reply: string;
  /** Text the writer or the shop wrote (kept line breaks). */
  text: string;
}

/** Five stars, the score's filled; `label` says the score to screen readers. */
export function Stars({ value, label, look }: { value: number; label: string; look: ReviewLook }) {
  const whole = Math.round(value);
  return (
    <span class={look.stars} role="img" aria-label={label}>
      <span aria-hidden="true">
        {'★'.repeat(whole)}
        <span class={look.off}>{'★'.repeat(5 - whole)}</span>
      </span>
    </span>
  );
}

/** When the experience took place (issue 21): `YYYY-MM-DD`, or `YYYY-MM` when the writer named only the month. */
export function ExperienceDate({ value, lang }: { value: string; lang: Language }) {
  const locale = localeFor(lang);
  return <time datetime={value}>{locale.t.experience(locale.month(value))}</time>;
}

export interface OriginOf {
  origin: ReviewOrigin;
  incentivised: boolean;
  imported_from: string | null;
}

/**
 * How the review was checked (issue 11), in the words the widget uses, with what the label means for screen
 * readers; the policy page explains each in full.
 */
export function OriginBadges({ review: r, lang, look }: { review: OriginOf; lang: Language; look: ReviewLook }) {
  const w = localeFor(lang).t;
  const [label, info] =
    r.origin === 'verified_order'
      ? [w.verifiedOrder, w.verifiedOrderInfo]
      : r.origin === 'imported'
        ? [r.imported_from ? w.importedFrom(r.imported_from) : w.imported, w.importedInfo]
        : [w.emailConfirmed, w.emailConfirmedInfo];
  return (
    <>
      <span class={look.badge}>
        {label}
        <span class={look.sr}> ({info})</span>
      </span>
      {r.incentivised ? (
        <span class={look.badge}>
          {w.incentivised}
          <span class={look.sr}> ({w.incentivisedInfo})</span>
        </span>
      ) : null}
    </>
  );
}

export interface PhotoOf {
  url: string;
  thumb_url: string;
  width: number;
  height: number;
  /** The thumbnail's own size when known (reviews/photos.ts PublicPhoto; ratings.json's photos leave it out). */
  thumb_width?: number;
  thumb_height?: number;
  alt: string;
}

/** The thumbnail's box, given before it loads (no layout shift): its own size, else the large photo's shape at 320 px. */
function thumbBox(photo: PhotoOf): { width: number; height: number } {
  if (photo.thumb_width && photo.thumb_height) return { width: photo.thumb_width, height: photo.thumb_height };
  const scale = Math.min(1, 320 / Math.max(photo.width, photo.height, 1));
  return { width: Math.max(1, Math.round(photo.width * scale)), height: Math.max(1, Math.round(photo.height * scale)) };
}

/**
 * The review's photos as thumbnails, each a link to the large photo, which works without JavaScript.
 * `opens`: `tab` where the surface has no viewer of its own (the fragment on a shop's product page: a new tab, said
 * to screen readers); `dialog` where the page's script opens the link in its dialog, sized by `data-width`/`-height`.
 */
export function ReviewPhotos({
  photos,
  owner,
  lang,
  opens,
  look,
}: {
  photos: readonly PhotoOf[];
  /** The writer's name as the surface shows it. */
  owner: string;
  lang: Language;
  opens: 'tab' | 'dialog';
  look: ReviewLook;
}) {
  const p = PHOTO_STRINGS[lang];
  const tab = opens === 'tab';
  const newTab = tab ? ` ${localeFor(lang).t.newTab}` : '';
  return (
    <ul class={look.photos} aria-label={p.photosOf(owner)}>
      {photos.map((photo, i) => {
        const box = thumbBox(photo);
        return (
          <li>
            <a
              href={photo.url}
              target={tab ? '_blank' : undefined}
              rel={tab ? 'noopener' : undefined}
              data-photo=""
              data-width={tab ? undefined : photo.width}
              data-height={tab ? undefined : photo.height}
              aria-label={`${p.open(i + 1)}: ${photo.alt}${newTab}`}
            >
              <img
                src={photo.thumb_url}
                width={box.width}
                height={box.height}
                alt={photo.alt}
                loading="lazy"
                decoding="async"
              />
            </a>
          </li>
        );
      })}
    </ul>
  );
}

/**
 * The shop's reply under the review. `heading`: the level the surface's outline has there; `null` where the
 * surface cannot know the outline around it (the fragment inside a shop's own page), a bold line instead.
 */
export function Reply({
  from,
  text,
  heading,
  look,
}: {
  /** "Reply from {shop}". */
  from: string;
  text: string;
  heading: 'h2' | 'h4' | null;
  look: ReviewLook;
}) {
  const Heading = heading;
  return (
    <div class={look.reply}>
      {Heading ? (
        <Heading>{from}</Heading>
      ) : (
        <p>
          <strong>{from}</strong>
        </p>
      )}
      <p class={look.text}>{text}</p>
    </div>
  );
}
