// Small building blocks shared by the sidebar, tooltip and pop-ups.
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { ctx, plural, S, score, t, date } from './env.js';

// One star in relative coordinates, so five are one path: `M{x} 2.5` + STAR for each.
const STAR = 'l2.9 6.1 6.6.8-4.9 4.6 1.3 6.6-5.9-3.3-5.9 3.3 1.3-6.6-4.9-4.6 6.6-.8z';
const FIVE = [12, 36, 60, 84, 108].map((x) => `M${x} 2.5${STAR}`).join('');

export function Star() {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path d={`M12 2.5${STAR}`} />
    </svg>
  );
}

/** Five stars showing a 0–5 value (decorative: the number is always written next to them). */
export function Stars({ value }: { value: number }) {
  const row = (
    <svg viewBox="0 0 120 24" aria-hidden="true" focusable="false">
      <path d={FIVE} />
    </svg>
  );
  return (
    <span class="stars">
      {row}
      <span style={{ width: `${Math.max(0, Math.min(5, value)) * 20}%` }}>{row}</span>
    </span>
  );
}

/**
 * Score out of 10, stars and the number of reviews. Read as shown ("8.9/10"), because the sidebar is a button named
 * by this text, and a voice-control user says what they see (WCAG 2.5.3).
 */
export function Summary() {
  const { shop } = ctx;
  return (
    <span class="summary">
      <span class="big">
        {shop.count ? score(shop.score) : '–'}
        <span class="of">/10</span>
      </span>
      <Stars value={shop.score / 2} />
      <span class="mu">{shop.count ? plural('reviews', shop.count) : S.noReviews}</span>
    </span>
  );
}

export function badgeText(badge: (typeof ctx.shop.badges)[number]): string {
  if (badge.key === 'approved') return t('badgeApproved', { date: date(badge.since) });
  if (badge.key === 'verified_share') return t('badgeVerified', { n: badge.value });
  return plural('member', badge.value);
}

const BADGE_ICON: Record<string, string> = {
  approved: 'M9 16.2 4.8 12l-1.4 1.4L9 19 21 7l-1.4-1.4z',
  verified_share: 'M12 2 4 5v6c0 5 3.4 9.7 8 11 4.6-1.3 8-6 8-11V5z',
  member_years: 'M7 2v2H5a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h14a2 2 0 0 0 2-2V6a2 2 0 0 0-2-2h-2V2h-2v2H9V2zM5 9h14v11H5z',
};

export function BadgeIcon({ kind }: { kind: string }) {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path d={BADGE_ICON[kind] ?? ''} fill="currentColor" />
    </svg>
  );
}

export function Badges() {
  const { badges } = ctx.shop;
  if (!badges.length) return null;
  return (
    <ul class="badges">
      {badges.map((b) => (
        <li key={b.key}>
          <BadgeIcon kind={b.key} />
          {badgeText(b)}
        </li>
      ))}
    </ul>
  );
}

const FOCUSABLE = 'a[href],button:not([disabled]),input:not([disabled]),select:not([disabled]),textarea:not([disabled]),[tabindex]:not([tabindex="-1"])';

/** The element that really has focus, looking inside shadow roots. */
export function deepActive(): HTMLElement | null {
  let active = document.activeElement as HTMLElement | null;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement as HTMLElement;
  return active;
}

function tabbable(dialog: HTMLElement): HTMLElement[] {
  return [...dialog.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => el.getClientRects().length > 0);
}

/** How the open pop-up closes (one at a time), for its close button. */
let closeDialog = () => {};

/**
 * A pop-up's heading, then its close button: the button sits top right, on the heading's line, so it comes after the
 * heading in reading order, and still first in the Tab order.
 */
export function Title({ children }: { children: ComponentChildren }) {
  return (
    <>
      <h2 id="dlg-title">{children}</h2>
      <button type="button" class="x" aria-label={S.close} onClick={() => closeDialog()}>
        <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
          <path d="M6 6l12 12M18 6 6 18" stroke="currentColor" stroke-width="2.5" />
        </svg>
      </button>
    </>
  );
}

/**
 * A modal dialog: focus moves in and is kept in (Tab wraps around), Escape and the backdrop close it, and focus
 * returns to the element that opened it. The native <dialog> puts it in the top layer and makes the page inert.
 * Its content starts with a <Title>.
 */
export function Modal(props: { onClose: () => void; opener: HTMLElement | null; sheet?: string; children: ComponentChildren }) {
  const ref = useRef<HTMLDialogElement>(null);
  const { onClose, opener } = props;
  closeDialog = onClose;
  useEffect(() => {
    const dialog = ref.current!;
    if (!dialog.open) dialog.showModal?.();
    (dialog.querySelector<HTMLElement>('[data-autofocus]') ?? tabbable(dialog)[0])?.focus();
    return () => {
      if (dialog.open) dialog.close();
      if (opener?.isConnected) opener.focus();
    };
  }, []);
  const onKeyDown = (e: KeyboardEvent) => {
    const dialog = ref.current!;
    if (e.key === 'Escape') {
      e.preventDefault();
      onClose();
    } else if (e.key === 'Tab') {
      const items = tabbable(dialog);
      const active = (dialog.getRootNode() as ShadowRoot).activeElement;
      const first = items[0];
      const last = items[items.length - 1];
      if (e.shiftKey ? active === first || !dialog.contains(active) : active === last) {
        e.preventDefault();
        (e.shiftKey ? last : first)?.focus();
      }
    }
  };
  return (
    <dialog
      ref={ref}
      class={props.sheet}
      aria-labelledby="dlg-title"
      onKeyDown={onKeyDown}
      onCancel={(e: Event) => (e.preventDefault(), onClose())}
      onClick={(e: MouseEvent) => e.target === ref.current && onClose()}
    >
      <div class="dlg">{props.children}</div>
    </dialog>
  );
}

/**
 * Five stars as a radio group: arrow keys move between them, each labelled with its number of stars. An optional
 * group has a "no rating" choice (checked at first), so a score given by mistake can be taken back (a radio cannot
 * be unchecked).
 */
export function StarInput({ name, legend, required, error }: { name: string; legend: string; required?: boolean; error?: string }) {
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
            <input
              type="radio"
              class="sr"
              id={`${name}-${n}`}
              name={name}
              value={n}
              onChange={() => setValue(n)}
            />
            <label for={`${name}-${n}`} class={n <= value ? 'on' : ''}>
              <Star />
              <span class="sr">{plural('stars', n)}</span>
            </label>
          </span>
        ))}
        {/* After the stars, so that on a narrow column it wraps as a whole onto its own line. */}
        {!required && (
          <span>
            <input type="radio" class="sr" id={`${name}-0`} name={name} value={0} defaultChecked onChange={() => setValue(0)} />
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
