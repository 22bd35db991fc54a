// The building blocks of the shopper pages, rendered on the server with Preact (which escapes every text).
// Star inputs are real radio groups, so they work with a keyboard and without JavaScript; the stars are drawn by CSS.
import type { ComponentChildren } from 'preact';
import { renderToString } from 'preact-render-to-string';
import { SUB_RATINGS } from '../reviews/rules.js';
import { photoAltField, photoField, productField, LIMITS, type FieldProblem, type ReviewFormValues } from './form.js';
import type { PhotoStrings } from '../photos/strings.js';
import { cspHash } from '../http/html.js';
import { inlineScript } from '../http/inline-script.js';
import { jsonForScript } from './html.js';
import { Stars, type ReviewLook } from '../review-view/parts.js';
import type { PageStrings } from './strings.js';

const ACCENT = '#1d4ed8';
const STAR_ON = '#a04300';
const STAR_OFF = '#6b6b6b';

/** Fills the stars up to the chosen one: `:has()` reads the checked radio of the row. */
const starFill = [1, 2, 3, 4, 5]
  .map((k) => {
    const labels = Array.from({ length: k }, (_, i) => `label[data-n="${i + 1}"]`).join(',');
    return `.row:has(input[value="${k}"]:checked) :is(${labels}){color:${STAR_ON}}`;
  })
  .join('');

const PAGE_CSS =
  `*,*::before,*::after{box-sizing:border-box}` +
  `body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1a1a1a;background:#f6f6f4}` +
  `.page{max-width:44rem;margin:0 auto;padding:1.5rem 1rem 3rem}` +
  `.card{background:#fff;border:1px solid #d6d6d6;border-radius:10px;padding:1.25rem 1.25rem 1.5rem;margin:1rem 0}` +
  `h1{font-size:1.6rem;line-height:1.25;margin:.5rem 0 1rem}h2{font-size:1.25rem;margin:1.5rem 0 .5rem}h3{font-size:1.05rem;margin:0}` +
  `a{color:${ACCENT}}a:focus-visible,button:focus-visible,textarea:focus-visible,input:focus-visible,select:focus-visible{outline:3px solid ${ACCENT};outline-offset:2px}` +
  `fieldset{border:0;margin:0 0 1.25rem;padding:0;min-width:0}legend{font-weight:600;padding:0;margin-bottom:.25rem}` +
  `.field{margin:0 0 1.25rem}.field label{display:block;font-weight:600;margin-bottom:.25rem}` +
  `.hint{color:#4d4d4d;font-size:.9rem;margin:.1rem 0 .35rem}` +
  `textarea,input[type=text],select{width:100%;font:inherit;color:inherit;background:#fff;border:1px solid #6b6b6b;border-radius:6px;padding:.5rem .6rem}` +
  `textarea{min-height:8rem;resize:vertical}` +
  `.row{display:flex;flex-wrap:wrap;align-items:center;gap:.15rem}` +
  `.row input{position:absolute;opacity:0;width:1px;height:1px;margin:0}` +
  `.row label{cursor:pointer;border-radius:6px}` +
  `.row label.star{font-size:2rem;line-height:1;padding:0 .1rem;color:${STAR_OFF}}` +
  `.row label.none{font-size:.9rem;padding:.25rem .6rem;margin-right:.35rem;border:1px solid #6b6b6b}` +
  // Small phones: the "no rating" choice and five stars still fit on one line.
  `@media (max-width:400px){.row label.star{font-size:1.6rem;padding:0}.row label.none{font-size:.8rem;padding:.2rem .45rem}}` +
  `.row input:checked+label.none{background:#1a1a1a;color:#fff;border-color:#1a1a1a}` +
  `.row input:checked+label.star{color:${STAR_ON}}` +
  `.row input:focus-visible+label{outline:3px solid ${ACCENT};outline-offset:2px}` +
  starFill +
  `.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);clip-path:inset(50%);white-space:nowrap}` +
  `button{font:inherit;font-weight:600;color:#fff;background:${ACCENT};border:0;border-radius:6px;padding:.7rem 1.2rem;cursor:pointer}` +
  `button:hover{background:#1e40af}` +
  `button[aria-disabled=true]{cursor:progress;opacity:.8}` +
  `.errors{border:2px solid #b00020;border-radius:8px;padding:.75rem 1rem;margin:1rem 0;background:#fff}` +
  `.errors h2{margin:0 0 .25rem;font-size:1.05rem}.error{color:#b00020;font-weight:600;margin:.1rem 0 .35rem}` +
  `[aria-invalid=true]{border-color:#b00020;border-width:2px}` +
  `.notice{border-left:4px solid #1a7f37;background:#fff;padding:.75rem 1rem;margin:1rem 0}` +
  `.product{border-top:1px solid #d6d6d6;padding-top:1rem}` +
  `details.photos{margin:0 0 1.25rem}details.photos summary{font-weight:600;cursor:pointer;padding:.25rem 0}` +
  `summary:focus-visible{outline:3px solid ${ACCENT};outline-offset:2px}` +
  `.photo-slot input[type=file]{display:block;margin-bottom:.5rem;font:inherit}` +
  `.current-thumb{display:block;width:80px;height:80px;object-fit:cover;border-radius:6px;margin-bottom:.5rem}` +
  `.listing .choices{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem 1.25rem;margin:.25rem 0 .75rem}` +
  `.listing select{width:auto}.listing input[type=checkbox]{width:1.1rem;height:1.1rem;vertical-align:-.15rem}` +
  `.helpful{display:flex;flex-wrap:wrap;align-items:center;gap:.25rem .75rem;margin:.5rem 0}` +
  `.helpful button{background:#fff;color:${ACCENT};border:1px solid ${ACCENT};padding:.25rem .8rem}` +
  `.helpful button:hover{background:#eef2ff}.helpful button[aria-pressed=true]{background:${ACCENT};color:#fff}` +
  `ul.photos{list-style:none;padding:0;margin:.5rem 0;display:flex;flex-wrap:wrap;gap:.5rem}` +
  `ul.photos img{display:block;max-width:160px;height:auto;border-radius:6px;border:1px solid #d6d6d6}` +
  `ul.photos a{display:block;border-radius:6px}ul.photos a:focus-visible{outline:3px solid ${ACCENT};outline-offset:2px}` +
  `.photo-dialog{max-width:min(96vw,1600px);max-height:96vh;padding:.5rem;border:0;border-radius:8px}` +
  `.photo-dialog::backdrop{background:rgba(0,0,0,.75)}` +
  `.photo-dialog img{display:block;max-width:100%;max-height:calc(96vh - 4rem);width:auto;height:auto}` +
  `.photo-dialog form{text-align:right;margin:0 0 .5rem}` +
  `.summary{display:flex;flex-wrap:wrap;align-items:baseline;gap:.5rem 1.25rem}` +
  `.score{font-size:2.25rem;font-weight:700}` +
  `.badges{list-style:none;padding:0;margin:.75rem 0 0;display:flex;flex-wrap:wrap;gap:.5rem}` +
  `.badges li,.badge{display:inline-block;font-size:.85rem;border:1px solid #1a7f37;color:#12612a;border-radius:999px;padding:.1rem .6rem;background:#fff}` +
  `.review header{display:flex;flex-wrap:wrap;align-items:center;gap:.25rem .75rem;margin-bottom:.35rem}` +
  `.review time{color:#4d4d4d;font-size:.9rem}` +
  `.shown{color:${STAR_ON};letter-spacing:.05em}.shown .off{color:${STAR_OFF}}` +
  `.text{white-space:pre-line;overflow-wrap:anywhere;margin:.25rem 0}` +
  `.reply{border-left:3px solid #d6d6d6;padding-left:.75rem;margin-top:.75rem}.reply h4{margin:0;font-size:.95rem}` +
  `nav.pages{display:flex;flex-wrap:wrap;justify-content:space-between;gap:.5rem;margin:1.5rem 0}` +
  `footer{text-align:center;color:#4d4d4d;font-size:.85rem;padding:0 1rem 2rem}` +
  `.logo{max-height:48px;max-width:160px}` +
  `@media (prefers-reduced-motion:reduce){*{transition:none!important;animation:none!important;scroll-behavior:auto!important}}`;

export const STYLE_HASH = cspHash(PAGE_CSS);

/** The review parts' classes in PAGE_CSS (the shop page, a review's own page, the moderation pages). */
export const PAGE_LOOK: ReviewLook = {
  stars: 'shown',
  off: 'off',
  badge: 'badge',
  sr: 'sr',
  photos: 'photos',
  reply: 'reply',
  text: 'text',
};

interface DocumentProps {
  lang: string;
  title: string;
  footer: string;
  jsonLd?: unknown;
  children: ComponentChildren;
}

export function renderDocument({ lang, title, footer, jsonLd, children }: DocumentProps): string {
  return (
    '<!doctype html>' +
    renderToString(
      <html lang={lang}>
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width,initial-scale=1" />
          <title>{title}</title>
          <style dangerouslySetInnerHTML={{ __html: PAGE_CSS }} />
          {jsonLd ? (
            <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: jsonForScript(jsonLd) }} />
          ) : null}
        </head>
        <body>
          <main class="page">{children}</main>
          <footer>{footer}</footer>
        </body>
      </html>,
    )
  );
}

const errorId = (field: string) => `${field}-error`;

function problemFor(problems: FieldProblem[], field: string): FieldProblem | undefined {
  return problems.find((p) => p.field === field);
}

/** A 1–5 star radio group; optional groups start with a "no rating" choice (a radio cannot be unchecked). */
function StarGroup(props: {
  name: string;
  legend: string;
  value: number | null;
  optional: boolean;
  t: PageStrings;
  problem?: FieldProblem;
}) {
  const { name, legend, value, optional, t, problem } = props;
  return (
    <fieldset aria-describedby={problem ? errorId(problem.field) : undefined}>
      <legend>
        {legend} <span class="hint">({optional ? t.optional : t.required})</span>
      </legend>
      {problem ? (
        <p class="error" id={errorId(problem.field)}>
          {problem.message}
        </p>
      ) : null}
      <div class="row">
        {optional ? (
          <>
            <input type="radio" id={`${name}-0`} name={name} value="0" checked={!value} />
            <label class="none" for={`${name}-0`}>
              {t.noRating}
            </label>
          </>
        ) : null}
        {[1, 2, 3, 4, 5].map((n) => (
          <>
            <input
              type="radio"
              id={`${name}-${n}`}
              name={name}
              value={String(n)}
              checked={value === n}
              required={!optional}
            />
            <label class="star" for={`${name}-${n}`} data-n={String(n)}>
              <span aria-hidden="true">★</span>
              <span class="sr">{t.stars(n)}</span>
            </label>
          </>
        ))}
      </div>
    </fieldset>
  );
}

export function ErrorSummary({ problems, t }: { problems: FieldProblem[]; t: PageStrings }) {
  if (!problems.length) return null;
  return (
    <div class="errors" role="alert">
      <h2>{t.errorSummary}</h2>
      <ul>
        {problems.map((p) => (
          <li>
            <a href={`#${p.field}`}>{p.message}</a>
          </li>
        ))}
      </ul>
    </div>
  );
}

function TextArea(props: {
  id: string;
  label: string;
  value: string;
  max: number;
  problem?: FieldProblem;
  hint?: string;
}) {
  const { id, label, value, max, problem, hint } = props;
  const described = [hint ? `${id}-hint` : '', problem ? errorId(id) : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {hint ? (
        <p class="hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      {problem ? (
        <p class="error" id={errorId(id)}>
          {problem.message}
        </p>
      ) : null}
      <textarea
        id={id}
        name={id}
        maxlength={max}
        aria-invalid={problem ? 'true' : undefined}
        aria-describedby={described}
      >
        {value}
      </textarea>
    </div>
  );
}

export interface ReviewFormProps {
  t: PageStrings;
  values: ReviewFormValues;
  problems: FieldProblem[];
  countries: { code: string; name: string }[];
  /** Names of the products to rate (the invitation's order), in the order of `values.products`. */
  products: string[];
  submit: string;
  /** The photo picker's texts: the form then takes up to 5 photos (multipart/form-data). */
  photos?: PhotoStrings;
  /** The edit page: the photos the review has (the picker then offers the slots left of 5). */
  current?: CurrentPhoto[];
}

/** A photo of the review on its edit page. */
export interface CurrentPhoto {
  id: string;
  /** The writer's description as typed. */
  alt: string;
  /** The thumbnail's address while it is public; null while it is encoded or held. */
  thumb: string | null;
  /** The writer ticked "Remove" (kept when the form comes back with a problem). */
  remove: boolean;
}

export const currentAltField = (id: string) => `current_${id}_alt`;
export const currentRemoveField = (id: string) => `current_${id}_remove`;

/** The edit page's photos: each shown small, with its description and a "Remove" box (no JavaScript needed). */
function CurrentPhotos({ p, photos, problems }: { p: PhotoStrings; photos: CurrentPhoto[]; problems: FieldProblem[] }) {
  return (
    <fieldset class="current-photos">
      <legend>{p.currentLegend}</legend>
      {photos.map((photo, i) => {
        const altProblem = problemFor(problems, currentAltField(photo.id));
        return (
          <div class="field photo-slot">
            {photo.thumb ? (
              <img src={photo.thumb} alt={photo.alt || p.photo(i + 1)} width={80} height={80} class="current-thumb" />
            ) : (
              <p class="hint">
                {p.photo(i + 1)}: {p.notShown}
              </p>
            )}
            <label for={currentAltField(photo.id)}>{p.description(i + 1)}</label>
            {altProblem ? (
              <p class="error" id={errorId(currentAltField(photo.id))}>
                {altProblem.message}
              </p>
            ) : null}
            <input
              type="text"
              id={currentAltField(photo.id)}
              name={currentAltField(photo.id)}
              value={photo.alt}
              maxlength={LIMITS.photoAlt}
              aria-invalid={altProblem ? 'true' : undefined}
              aria-describedby={altProblem ? errorId(currentAltField(photo.id)) : undefined}
            />
            <p>
              <input
                type="checkbox"
                id={currentRemoveField(photo.id)}
                name={currentRemoveField(photo.id)}
                value="1"
                checked={photo.remove}
              />{' '}
              <label for={currentRemoveField(photo.id)}>{p.remove(i + 1)}</label>
            </p>
          </div>
        );
      })}
    </fieldset>
  );
}

/** The file types the picker offers: phones then convert HEIC photos to JPEG as they are picked. */
const PHOTO_ACCEPT = 'image/jpeg,image/png,image/webp,image/avif';

/**
 * Five photo slots, each a file input and its description, in a disclosure that starts open when something in it
 * needs the writer's attention. Plain controls: keyboard and no JavaScript work as they are.
 */
function PhotoPicker({
  p,
  alts,
  problems,
  free = 5,
}: {
  p: PhotoStrings;
  alts: string[];
  problems: FieldProblem[];
  /** The slots left (the edit page: 5 less the photos the review keeps, numbered after them). */
  free?: number;
}) {
  const shown = (n: number) => n + 5 - free;
  const slots = Array.from({ length: free }, (_, i) => i + 1);
  const open = problems.some((x) => x.field.startsWith('photo_')) || alts.some(Boolean);
  return (
    <details class="photos" open={open}>
      <summary>{p.legend}</summary>
      <p class="hint" id="photos-hint">
        {p.hint}
      </p>
      {slots.map((n) => {
        const fileProblem = problemFor(problems, photoField(n));
        const altProblem = problemFor(problems, photoAltField(n));
        return (
          <div class="field photo-slot">
            <label for={photoField(n)}>{p.photo(shown(n))}</label>
            {fileProblem ? (
              <p class="error" id={errorId(photoField(n))}>
                {fileProblem.message}
              </p>
            ) : null}
            <input
              type="file"
              id={photoField(n)}
              name={photoField(n)}
              accept={PHOTO_ACCEPT}
              aria-invalid={fileProblem ? 'true' : undefined}
              aria-describedby={fileProblem ? `photos-hint ${errorId(photoField(n))}` : 'photos-hint'}
            />
            <label for={photoAltField(n)}>{p.description(shown(n))}</label>
            {altProblem ? (
              <p class="error" id={errorId(photoAltField(n))}>
                {altProblem.message}
              </p>
            ) : null}
            <input
              type="text"
              id={photoAltField(n)}
              name={photoAltField(n)}
              value={alts[n - 1] ?? ''}
              maxlength={LIMITS.photoAlt}
              aria-invalid={altProblem ? 'true' : undefined}
              aria-describedby={altProblem ? errorId(photoAltField(n)) : undefined}
            />
          </div>
        );
      })}
    </details>
  );
}

/** The whole review form; it posts to its own address, where the link's token is the credential. */
export function ReviewForm({ t, values, problems, countries, products, submit, photos, current }: ReviewFormProps) {
  const nameProblem = problemFor(problems, 'name');
  const countryProblem = problemFor(problems, 'country');
  return (
    <form method="post" class="card" data-left={t.charactersLeft} enctype={photos ? 'multipart/form-data' : undefined}>
      <StarGroup
        name="rating"
        legend={t.overall}
        value={values.rating}
        optional={false}
        t={t}
        problem={problemFor(problems, 'rating-1')}
      />
      {SUB_RATINGS.map((key) => (
        <StarGroup name={key} legend={t.subScores[key]} value={values.ratings[key] || null} optional t={t} />
      ))}
      <TextArea
        id="comment"
        label={`${t.comment} (${t.optional})`}
        value={values.comment}
        max={LIMITS.comment}
        problem={problemFor(problems, 'comment')}
      />
      <div class="field">
        <label for="name">{t.name}</label>
        <p class="hint" id="name-hint">
          {t.nameHint}
        </p>
        {nameProblem ? (
          <p class="error" id={errorId('name')}>
            {nameProblem.message}
          </p>
        ) : null}
        <input
          type="text"
          id="name"
          name="name"
          value={values.name}
          required
          maxlength={LIMITS.name}
          autocomplete="name"
          aria-invalid={nameProblem ? 'true' : undefined}
          aria-describedby={nameProblem ? `name-hint ${errorId('name')}` : 'name-hint'}
        />
      </div>
      <div class="field">
        <label for="country">
          {t.country} <span class="hint">({t.optional})</span>
        </label>
        {countryProblem ? (
          <p class="error" id={errorId('country')}>
            {countryProblem.message}
          </p>
        ) : null}
        <select
          id="country"
          name="country"
          autocomplete="country"
          aria-invalid={countryProblem ? 'true' : undefined}
          aria-describedby={countryProblem ? errorId('country') : undefined}
        >
          <option value="" selected={!values.country}>
            {t.countryNone}
          </option>
          {countries.map((c) => (
            <option value={c.code} selected={values.country === c.code}>
              {c.name}
            </option>
          ))}
        </select>
      </div>
      {products.length > 0 ? (
        <section aria-labelledby="products-heading">
          <h2 id="products-heading">{t.productsHeading}</h2>
          {products.map((product, i) => (
            <div class="product">
              <StarGroup
                name={productField(i, 'rating')}
                legend={t.productRating(product)}
                value={values.products[i]?.rating ?? null}
                optional
                t={t}
              />
              <TextArea
                id={productField(i, 'content')}
                label={`${t.productText(product)} (${t.optional})`}
                value={values.products[i]?.content ?? ''}
                max={LIMITS.productText}
                problem={problemFor(problems, productField(i, 'content'))}
              />
            </div>
          ))}
        </section>
      ) : null}
      {photos && current?.length ? <CurrentPhotos p={photos} photos={current} problems={problems} /> : null}
      {photos && (current?.length ?? 0) < 5 ? (
        <PhotoPicker p={photos} alts={values.photoAlts ?? []} problems={problems} free={5 - (current?.length ?? 0)} />
      ) : null}
      <button type="submit">{submit}</button>
      {/* Characters left and one submission (server/pages/browser/review-form.ts), allowed by its CSP hash. */}
      <script dangerouslySetInnerHTML={{ __html: inlineScript('review-form').source }} />
    </form>
  );
}

/** Five stars for a score of 1–5, read as "4 out of 5 stars". */
export function ShownStars({ value, t }: { value: number; t: PageStrings }) {
  return <Stars value={value} label={t.outOf5(value)} look={PAGE_LOOK} />;
}
