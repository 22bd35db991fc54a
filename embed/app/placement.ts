// Where the mobile sidebar sits for each `_service_mobile` mode (see README, "Embedding"):
// - `none`: nothing; `top_bar`: a full-width bar fixed at the top, with room made for it above the page;
// - `top`, `bottom`: a tab on that edge, placed left, centre or right by `_service_mobile_tab`;
// - `top_left` … `bottom_right`: a tab in that corner (the corner decides; `_service_mobile_tab` does not apply);
// - `top_manual`, `bottom_manual`: the shop places the tab itself: `_service_sidebar_top` from the top (or from the
//   bottom) edge, on the side `_service_mobile_tab` names.
import type { Settings } from '../shared/settings.js';

type MobileLayout =
  | { kind: 'none' }
  | { kind: 'bar' }
  | { kind: 'tab'; edge: 'top' | 'bottom'; style: Record<string, string> };

const ACROSS: Record<Settings['mobile_tab'], Record<string, string>> = {
  left: { left: '0' },
  center: { left: '50%', transform: 'translateX(-50%)' },
  right: { right: '0' },
};

export function mobileLayout(s: Pick<Settings, 'mobile' | 'mobile_tab' | 'top'>): MobileLayout {
  if (s.mobile === 'none') return { kind: 'none' };
  if (s.mobile === 'top_bar') return { kind: 'bar' };
  const [edgeWord, where] = s.mobile.split('_') as ['top' | 'bottom', string | undefined];
  const edge = edgeWord === 'bottom' ? 'bottom' : 'top';
  if (where === 'left' || where === 'right') return { kind: 'tab', edge, style: { [edge]: '0', [where]: '0' } };
  const offset = where === 'manual' ? cssTop(s.top) : '0';
  return { kind: 'tab', edge, style: { [edge]: offset, ...ACROSS[s.mobile_tab] } };
}

/** `300` → `300px`; `300px` and `40%` stay as they are. */
export function cssTop(top: string): string {
  return /[%x]$/.test(top) ? top : `${top}px`;
}

/** Whether the centre of the focused element's box is under our box (then ours steps aside, WCAG 2.4.11). */
type Box = Pick<DOMRectReadOnly, 'left' | 'top' | 'right' | 'bottom'>;

export function centreUnder(focused: Box, ours: Box): boolean {
  const x = (focused.left + focused.right) / 2;
  const y = (focused.top + focused.bottom) / 2;
  return x > ours.left && x < ours.right && y > ours.top && y < ours.bottom;
}

/** A bar or tab at the top of the screen is read before the page, anything else after it (DOM order = what is seen). */
export function readBeforePage(layout: MobileLayout): boolean {
  return layout.kind === 'bar' || (layout.kind === 'tab' && layout.edge === 'top');
}
