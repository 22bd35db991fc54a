// The review form: written in the consent pop-up after "Write a review now" (with the consent's review token), or
// through the `serviceAddReview` class as a consumer experience (published only after the writer confirms by
// e-mail, never marked as a verified customer, with a honeypot field against bots).
import { useState } from 'preact/hooks';
import { api, ctx, plural, S, t } from './env.js';
import { Star, Title } from './ui.js';
import type { OrderData } from '../shared/order.js';
import type { StringKey } from '../strings/index.js';

const SUBS = ['shippingtime', 'customerservice', 'pricequality', 'aftersale'] as const;
const COUNTRIES = ['NL', 'BE', 'DE', 'AT', 'CH', 'FR', 'LU', 'GB', 'IE', 'US', 'ES', 'IT', 'HR'];
const COUNTRY_OF: Record<string, string> = { nl: 'NL', en: 'GB', de: 'DE', fr: 'FR', es: 'ES', it: 'IT', hr: 'HR' };
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

type Props = { mode: 'write'; token: string; order: OrderData } | { mode: 'add' };
/** A photo picked for the review (issue 20): uploaded as the review is sent, then named by its id. */
type Picked = { file: File; alt: string; id?: string };

function countryName(code: string): string {
  try {
    return new Intl.DisplayNames([ctx.lang], { type: 'region' }).of(code) ?? code;
  } catch {
    return code;
  }
}

/** Turns the form into the API body, or names the first problem of each field. */
function read(form: HTMLFormElement, askEmail: boolean) {
  const data = new FormData(form);
  const text = (name: string) => String(data.get(name) ?? '').trim();
  const errors: Record<string, StringKey> = {};
  const rating = Number(data.get('rating') ?? 0);
  if (!rating) errors.rating = 'errScore';
  if (!text('name')) errors.name = 'errName';
  if (askEmail && !EMAIL.test(text('email'))) errors.email = 'errEmail';
  const ratings = Object.fromEntries(SUBS.map((k) => [k, Number(data.get(k) ?? 0)]));
  const body: Record<string, unknown> = { rating, ratings, comment: text('comment'), name: text('name') };
  if (text('country')) body.country = text('country');
  if (text('experience_date')) body.experience_date = text('experience_date');
  if (askEmail) body.email = text('email');
  return { body, errors, honeypot: String(data.get('website') ?? '') };
}

export function ReviewForm(props: Props) {
  const [err, setErrors] = useState<Record<string, StringKey>>({});
  const [state, setState] = useState<'idle' | 'busy' | 'published' | 'confirm'>('idle');
  const [failure, setFailure] = useState<StringKey | ''>('');
  const [photos, setPhotos] = useState<Picked[]>([]);
  const [photoError, setPhotoError] = useState('');
  // The server needs an address to send the edit or confirmation link to.
  const askEmail = props.mode === 'add' || !EMAIL.test(props.order.email?.trim() ?? '');

  if (state === 'published' || state === 'confirm') {
    return (
      <>
        <Title>{t(props.mode === 'add' ? 'addTitle' : 'writeTitle')}</Title>
        <p role="status" class="done" tabIndex={-1} ref={(el) => el?.focus()}>
          {S[state]}
        </p>
      </>
    );
  }

  const submit = async (e: Event) => {
    e.preventDefault();
    if (state === 'busy') return;
    const form = e.currentTarget as HTMLFormElement;
    const { body, errors: found, honeypot } = read(form, askEmail);
    setErrors(found);
    setFailure('');
    if (Object.keys(found).length) {
      form.querySelector<HTMLElement>(`[name="${Object.keys(found)[0]}"]`)?.focus();
      return;
    }
    setState('busy');
    // Each photo is uploaded once (a retry after a refused one keeps the ids of those stored already).
    for (const photo of photos) {
      if (photo.id) continue;
      const data = new FormData();
      data.append('photo', photo.file);
      const sent = await upload(data);
      if (!sent.id) {
        setState('idle');
        setPhotoError(sent.message || S.error);
        form.querySelector<HTMLElement>('#f-photos')?.focus();
        return;
      }
      photo.id = sent.id;
    }
    setPhotoError('');
    if (photos.length) body.photos = photos.map(({ id, alt }) => ({ id, alt: alt.trim() }));
    const answer =
      props.mode === 'write'
        ? await api<{ status?: string }>('reviews', { ...body, reviewToken: props.token })
        : await api<{ status?: string }>('experiences', { ...body, language: ctx.lang, website: honeypot });
    if (answer.status === 201 || answer.status === 202) {
      setState(answer.body.status === 'published' ? 'published' : 'confirm');
      return;
    }
    setState('idle');
    setFailure(answer.status === 429 ? 'errTooMany' : answer.status === 403 ? 'errExpired' : 'error');
  };

  const field = (name: 'name' | 'email', value?: string) => (
    <p class="field">
      <label for={`f-${name}`}>{S[name]}</label>
      <input
        id={`f-${name}`}
        name={name}
        // (One literal type: Preact's typings read a union of input types as possibly needing `list`.)
        type={(name === 'email' ? 'email' : 'text') as 'text'}
        autocomplete={name === 'email' ? 'email' : 'given-name'}
        maxLength={name === 'name' ? 80 : 254}
        defaultValue={value}
        aria-invalid={err[name] ? 'true' : undefined}
        aria-describedby={err[name] ? `f-${name}-err` : undefined}
      />
      {err[name] && (
        <span id={`f-${name}-err`} class="err">
          {S[err[name]!]}
        </span>
      )}
    </p>
  );

  return (
    <form onSubmit={submit} noValidate>
      <Title>{t(props.mode === 'add' ? 'addTitle' : 'writeTitle')}</Title>
      {props.mode === 'add' && <p class="mu">{S.addNote}</p>}
      <StarInput name="rating" legend={S.overall} required error={err.rating && S[err.rating]} />
      <div class="subs">
        {SUBS.map((k) => (
          <StarInput key={k} name={k} legend={S[k]} />
        ))}
      </div>
      <p class="field">
        <label for="f-comment">{S.comment}</label>
        <textarea id="f-comment" name="comment" rows={4} maxLength={5000} />
      </p>
      {field('name', props.mode === 'write' ? props.order.firstName?.trim() : undefined)}
      {askEmail && field('email')}
      {props.mode === 'add' && <ExperienceMonth />}
      <p class="field">
        <label for="f-country">{S.country}</label>
        <select id="f-country" name="country">
          <option value="">–</option>
          {COUNTRIES.map((c) => (
            <option key={c} value={c} selected={c === COUNTRY_OF[ctx.lang]}>
              {countryName(c)}
            </option>
          ))}
        </select>
      </p>
      <PhotoPicker photos={photos} setPhotos={setPhotos} error={photoError} />
      {props.mode === 'add' && (
        // The honeypot: invisible to people (and to assistive technology), filled in by form-filling bots.
        <p class="hp" aria-hidden="true">
          <label>
            Website <input name="website" tabIndex={-1} autocomplete="off" />
          </label>
        </p>
      )}
      {failure && (
        <p role="alert" class="err">
          {S[failure]}
        </p>
      )}
      <button type="submit" class="btn" aria-disabled={state === 'busy'}>
        {state === 'busy' ? S.sending : S.send}
      </button>
    </form>
  );
}

/** One photo to the service; its id, or the service's message (in the page's language) when refused. */
async function upload(data: FormData): Promise<{ id?: string; message?: string }> {
  try {
    const response = await fetch(`${ctx.base}/embed/${ctx.id}/photos?lang=${ctx.lang}`, {
      method: 'POST',
      body: data,
      credentials: 'omit',
    });
    const body = await response.json();
    return response.ok ? { id: body.id } : { message: body.error?.message };
  } catch {
    return {};
  }
}

/**
 * Up to 5 photos, each with its description and a button that takes it off; the file input accepts the formats
 * phones convert HEIC to. Plain controls: keyboard and screen readers work as they are.
 */
function PhotoPicker({
  photos,
  setPhotos,
  error,
}: {
  photos: Picked[];
  setPhotos: (p: Picked[]) => void;
  error: string;
}) {
  const pick = (e: Event) => {
    const input = e.currentTarget as HTMLInputElement;
    const added = [...(input.files ?? [])].map((file) => ({ file, alt: '' }));
    setPhotos([...photos, ...added].slice(0, 5));
    input.value = '';
  };
  return (
    <fieldset class="photos" aria-describedby={error ? 'f-photos-err' : undefined}>
      <legend>
        {S.photos} <span class="mu">{S.optional}</span>
      </legend>
      {photos.map((photo, i) => (
        <p class="field" key={photo.file}>
          <label for={`f-alt-${i}`}>{t('photoAlt', { n: i + 1, file: photo.file.name })}</label>
          <input
            id={`f-alt-${i}`}
            maxLength={200}
            value={photo.alt}
            onInput={(e) => {
              photo.alt = (e.currentTarget as HTMLInputElement).value;
            }}
          />
          <button type="button" class="lnk" onClick={() => setPhotos(photos.filter((p) => p !== photo))}>
            {t('photoRemove', { n: i + 1 })}
          </button>
        </p>
      ))}
      {photos.length < 5 && (
        <p class="field">
          <input
            type="file"
            id="f-photos"
            aria-label={S.photos}
            aria-describedby="f-photos-hint"
            accept="image/jpeg,image/png,image/webp,image/avif"
            multiple
            onChange={pick}
          />
          <span id="f-photos-hint" class="mu">
            {S.photoHint}
          </span>
        </p>
      )}
      {error && (
        <p id="f-photos-err" role="alert" class="err">
          {error}
        </p>
      )}
    </fieldset>
  );
}

/** The month of the experience (no order dates a form review): this month and the 23 before it, newest first. */
function ExperienceMonth() {
  const now = new Date();
  const format = new Intl.DateTimeFormat(ctx.lang, { month: 'long', year: 'numeric', timeZone: 'UTC' });
  const months = Array.from(
    { length: 24 },
    (_, i) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - i, 1)),
  );
  return (
    <p class="field">
      <label for="f-experience">{S.experienceWhen}</label>
      <select id="f-experience" name="experience_date">
        {months.map((m) => (
          <option key={m.getTime()} value={m.toISOString().slice(0, 7)}>
            {format.format(m)}
          </option>
        ))}
      </select>
    </p>
  );
}

/**
 * Five stars as a radio group: arrow keys move between them, each labelled with its number of stars. An optional
 * group has a "no rating" choice (checked at first), so a score given by mistake can be taken back (a radio cannot
 * be unchecked).
 */
function StarInput({
  name,
  legend,
  required,
  error,
}: {
  name: string;
  legend: string;
  required?: boolean;
  error?: string;
}) {
  const [value, setValue] = useState(0);
  const errorId = `${name}-err`;
  return (
    <fieldset class="rate" aria-describedby={error ? errorId : undefined} aria-invalid={error ? 'true' : undefined}>
      <legend>
        {legend}
        {!required && <span class="mu"> {S.optional}</span>}
      </legend>
      <div class="row">
        {[1, 2, 3, 4, 5].map((n) => (
          <span key={n}>
            <input type="radio" class="sr" id={`${name}-${n}`} name={name} value={n} onChange={() => setValue(n)} />
            <label for={`${name}-${n}`} class={n <= value ? 'on' : ''}>
              <Star />
              <span class="sr">{plural('stars', n)}</span>
            </label>
          </span>
        ))}
        {/* After the stars, so that on a narrow column it wraps as a whole onto its own line. */}
        {!required && (
          <span>
            <input
              type="radio"
              class="sr"
              id={`${name}-0`}
              name={name}
              value={0}
              defaultChecked
              onChange={() => setValue(0)}
            />
            <label for={`${name}-0`} class="none">
              {S.noRating}
            </label>
          </span>
        )}
      </div>
      {error && (
        <p id={errorId} class="err">
          {error}
        </p>
      )}
    </fieldset>
  );
}
