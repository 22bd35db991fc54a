// Small building blocks shared by the sidebar, tooltip and pop-ups.
import { Component, type ComponentChildren } from 'preact';
import { ctx, plural, S, score, t, date } from './env.js';

// One star in relative coordinates, so five are one path: `M{x} 2.5` + STAR for each.
const STAR = 'l2.9 6.1 6.6.8-4.9 4.6 1.3 6.6-5.9-3.3-5.9 3.3 1.3-6.6-4.9-4.6 6.6-.8z';
const FIVE = [12, 36, 60, 84, 108].map((x) => `M${x} 2.5${STAR}`).join('');

export function Star() {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true">
      <path d={`M12 2.5${STAR}`} />
    </svg>
  );
}

/** Five stars showing a 0–5 value (decorative: the number is always written next to them). */
export function Stars({ value }: { value: number }) {
  const row = (
    <svg viewBox="0 0 120 24" aria-hidden="true">
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
    <svg viewBox="0 0 24 24" aria-hidden="true">
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

const FOCUSABLE =
  'a[href],button:not([disabled]),input:not([disabled]),select:not([disabled]),textarea:not([disabled]),[tabindex]:not([tabindex="-1"])';

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
        <svg viewBox="0 0 24 24" aria-hidden="true">
          <path d="M6 6l12 12M18 6 6 18" stroke="currentColor" stroke-width="2.5" />
        </svg>
      </button>
    </>
  );
}

type ModalProps = { onClose: () => void; opener: HTMLElement | null; sheet?: string; children: ComponentChildren };

// (Classes rather than hooks throughout the app: Preact's hooks would cost the app a kilobyte; form.js has them.)
/**
 * A modal dialog: focus moves in and is kept in (Tab wraps around), Escape and the backdrop close it, and focus
 * returns to the element that opened it. The native <dialog> puts it in the top layer and makes the page inert.
 * Its content starts with a <Title>.
 */
export class Modal extends Component<ModalProps> {
  dialog!: HTMLDialogElement;

  override componentDidMount() {
    const { dialog } = this;
    if (!dialog.open) dialog.showModal?.();
    (dialog.querySelector<HTMLElement>('[data-autofocus]') ?? tabbable(dialog)[0])?.focus();
  }

  override componentWillUnmount() {
    const { opener } = this.props;
    if (this.dialog.open) this.dialog.close();
    if (opener?.isConnected) opener.focus();
  }

  onKeyDown = (e: KeyboardEvent) => {
    const { dialog } = this;
    if (e.key === 'Escape') {
      e.preventDefault();
      this.props.onClose();
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

  render({ onClose, sheet, children }: ModalProps) {
    closeDialog = onClose;
    return (
      <dialog
        // biome-ignore lint/suspicious/noAssignInExpressions: the app's byte budget; the ref callback only keeps the element
        ref={(el) => void (el && (this.dialog = el))}
        class={sheet}
        aria-labelledby="dlg-title"
        onKeyDown={this.onKeyDown}
        // biome-ignore lint/complexity/noCommaOperator: the app's byte budget (embed/budget.test.ts)
        onCancel={(e: Event) => (e.preventDefault(), onClose())}
        onClick={(e: MouseEvent) => e.target === this.dialog && onClose()}
      >
        <div class="dlg">{children}</div>
      </dialog>
    );
  }
}
