// The report page: the review being reported, and a form that works without JavaScript (a radio group for the
// ground, optional details and address). The page's styles are the shopper pages' (one CSP hash for all of them).
import type { ComponentChildren } from 'preact';
import type { Language } from '../languages.js';
import { renderDocument, ShownStars } from '../pages/components.js';
import { stringsFor } from '../pages/strings.js';
import { APPEAL_LIMITS, GROUNDS, REPORT_LIMITS, type ReportFormValues, type ReportProblem } from './schema.js';
import type { AppealStrings } from './appeal-strings.js';
import type { ReportStrings } from './strings.js';

export interface ReportFrame {
  t: ReportStrings;
  lang: Language;
  brandName: string;
}

interface ReportedReview {
  name: string;
  rating: number;
  comment: string | null;
  shopName: string;
  /** Its shown photos (issue 20): a report may name one. */
  photos?: { id: string; alt: string }[];
}

const FIELD_OF: Record<ReportProblem, string> = {
  ground: 'ground-not_experience',
  text: 'text',
  email: 'email',
  photo: 'photo-review',
};

function document(frame: ReportFrame, title: string, children: ComponentChildren, error = false): string {
  const page = stringsFor(frame.lang);
  return renderDocument({
    lang: frame.lang,
    title: `${error ? `${frame.t.errorTitle}: ` : ''}${title} | ${frame.brandName}`,
    footer: page.footer(frame.brandName),
    children,
  });
}

export function reportMessagePage(frame: ReportFrame, title: string, body: string): string {
  return document(
    frame,
    title,
    <>
      <h1>{title}</h1>
      <p>{body}</p>
    </>,
  );
}

interface ReportFormData {
  review: ReportedReview;
  values: ReportFormValues;
  problems: ReportProblem[];
  /** A notice above the form (the token expired); '' for none. */
  notice: string;
  token: string;
  action: string;
}

export function reportPage(frame: ReportFrame, data: ReportFormData): string {
  const { t } = frame;
  const { review, values, problems } = data;
  const messages: Record<ReportProblem, string> = {
    ground: t.groundRequired,
    text: t.textTooLong(REPORT_LIMITS.text),
    email: t.emailInvalid,
    photo: t.photoInvalid,
  };
  const has = (p: ReportProblem) => problems.includes(p);
  const describedBy = (id: string, hint: boolean, p: ReportProblem) =>
    [hint ? `${id}-hint` : '', has(p) ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return document(
    frame,
    t.title,
    <>
      <h1>{t.title}</h1>
      <p>{t.intro(review.shopName)}</p>
      <article class="card review" aria-labelledby="reported-heading">
        <h2 id="reported-heading" class="sr">
          {t.reviewHeading}
        </h2>
        <header>
          <h3>{review.name}</h3>
          <ShownStars value={review.rating} t={stringsFor(frame.lang)} />
        </header>
        {review.comment ? <p class="text">{review.comment}</p> : null}
      </article>
      {data.notice ? (
        <p class="notice" role="status">
          {data.notice}
        </p>
      ) : null}
      {problems.length ? (
        <div class="errors" role="alert">
          <h2>{t.errorSummary}</h2>
          <ul>
            {problems.map((p) => (
              <li>
                <a href={`#${FIELD_OF[p]}`}>{messages[p]}</a>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <form method="post" action={data.action} class="card">
        <input type="hidden" name="token" value={data.token} />
        {review.photos?.length ? (
          <fieldset aria-describedby={has('photo') ? 'photo-error' : undefined}>
            <legend>{t.targetLegend}</legend>
            {has('photo') ? (
              <p class="error" id="photo-error">
                {messages.photo}
              </p>
            ) : null}
            {[{ id: '', alt: t.wholeReview }, ...review.photos].map((photo, i) => (
              <p>
                <input
                  type="radio"
                  id={`photo-${photo.id || 'review'}`}
                  name="photo"
                  value={photo.id}
                  checked={(values.photo ?? '') === photo.id}
                  aria-invalid={has('photo') ? 'true' : undefined}
                />{' '}
                <label for={`photo-${photo.id || 'review'}`}>{i === 0 ? photo.alt : t.photoChoice(i, photo.alt)}</label>
              </p>
            ))}
          </fieldset>
        ) : null}
        <fieldset aria-describedby={has('ground') ? 'ground-error' : undefined}>
          <legend>{t.groundLegend}</legend>
          {has('ground') ? (
            <p class="error" id="ground-error">
              {messages.ground}
            </p>
          ) : null}
          {GROUNDS.map((ground) => (
            <p>
              <input
                type="radio"
                id={`ground-${ground}`}
                name="ground"
                value={ground}
                checked={values.ground === ground}
                required
                aria-invalid={has('ground') ? 'true' : undefined}
              />{' '}
              <label for={`ground-${ground}`}>{t.grounds[ground]}</label>
            </p>
          ))}
        </fieldset>
        <div class="field">
          <label for="text">{t.text}</label>
          <p class="hint" id="text-hint">
            {t.textHint(REPORT_LIMITS.text)}
          </p>
          {has('text') ? (
            <p class="error" id="text-error">
              {messages.text}
            </p>
          ) : null}
          <textarea
            id="text"
            name="text"
            maxlength={REPORT_LIMITS.text}
            aria-invalid={has('text') ? 'true' : undefined}
            aria-describedby={describedBy('text', true, 'text')}
          >
            {values.text}
          </textarea>
        </div>
        <div class="field">
          <label for="email">{t.email}</label>
          <p class="hint" id="email-hint">
            {t.emailHint}
          </p>
          {has('email') ? (
            <p class="error" id="email-error">
              {messages.email}
            </p>
          ) : null}
          {/* type=text: the pages' one stylesheet styles text fields; the address is checked on the server. */}
          <input
            type="text"
            inputmode="email"
            id="email"
            name="email"
            value={values.email}
            maxlength={REPORT_LIMITS.email}
            autocomplete="email"
            spellcheck={false}
            aria-invalid={has('email') ? 'true' : undefined}
            aria-describedby={describedBy('email', true, 'email')}
          />
        </div>
        <button type="submit">{t.submit}</button>
      </form>
    </>,
    problems.length > 0,
  );
}

export interface AppealFormData {
  /** The contested decision as the complainant is told it. */
  decision: string;
  ground: string;
  text: string;
  problem: 'required' | 'too_long' | null;
  action: string;
}

/** The complaint page (`/appeal/{token}`): what was decided, and one text field. Nothing changes until it is posted. */
export function appealPage(frame: ReportFrame, a: AppealStrings, data: AppealFormData): string {
  const message = data.problem === 'too_long' ? a.textTooLong(APPEAL_LIMITS.text) : a.textRequired;
  return document(
    frame,
    a.title,
    <>
      <h1>{a.title}</h1>
      <section class="card" aria-label={a.title}>
        <p>{data.decision}</p>
        {data.ground ? <p>{data.ground}</p> : null}
      </section>
      <p>{a.intro}</p>
      {data.problem ? (
        <div class="errors" role="alert">
          <h2>{frame.t.errorSummary}</h2>
          <ul>
            <li>
              <a href="#text">{message}</a>
            </li>
          </ul>
        </div>
      ) : null}
      <form method="post" action={data.action} class="card">
        <div class="field">
          <label for="text">{a.text}</label>
          <p class="hint" id="text-hint">
            {a.textHint(APPEAL_LIMITS.text)}
          </p>
          {data.problem ? (
            <p class="error" id="text-error">
              {message}
            </p>
          ) : null}
          <textarea
            id="text"
            name="text"
            required
            maxlength={APPEAL_LIMITS.text}
            aria-invalid={data.problem ? 'true' : undefined}
            aria-describedby={data.problem ? 'text-hint text-error' : 'text-hint'}
          >
            {data.text}
          </textarea>
        </div>
        <button type="submit">{a.submit}</button>
      </form>
    </>,
    data.problem !== null,
  );
}
