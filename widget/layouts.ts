// The nine widget layouts: which parameters each one takes and the iframe size it is designed for. One table
// serves the server (defaults, cache keys), the configurator (which fields to show) and the docs.

export const LAYOUTS = [
  'new_default',
  'new_badges',
  'new_button-text',
  'new_button-stars',
  'new_button_logo',
  'new_button_logo-score',
  'new_button_logo-sm',
  'new_balloon',
  'modern',
] as const;
export type Layout = (typeof LAYOUTS)[number];

export type WidgetParam =
  | 'theme'
  | 'color'
  | 'show'
  | 'view'
  | 'amount'
  | 'width'
  | 'height'
  | 'interval'
  | 'language'
  | 'css'
  | 'photos';

/** Parameters every layout takes (the table's "all", "same as width"). */
const COMMON: WidgetParam[] = ['width', 'height', 'language', 'css'];
const REVIEW_PARAMS: WidgetParam[] = ['show', 'view', 'amount', 'interval', 'photos'];

interface LayoutInfo {
  label: string;
  params: WidgetParam[];
  /** Width when `width=manual` is chosen without a width_amount (px). */
  width: number;
  /** Narrowest and lowest iframe (px) at which nothing is clipped. */
  minWidth: number;
  minHeight: number;
  /** Whether the layout lists reviews (the 12 KB budget) or is a button or badge (5 KB). */
  lists: boolean;
}

export const LAYOUT_INFO: Record<Layout, LayoutInfo> = {
  new_default: {
    label: 'Score and reviews',
    params: ['theme', 'color', ...REVIEW_PARAMS, ...COMMON],
    width: 360,
    minWidth: 240,
    minHeight: 0,
    lists: true,
  },
  new_badges: {
    label: 'Badge',
    params: ['theme', 'color', ...COMMON],
    width: 150,
    minWidth: 130,
    minHeight: 150,
    lists: false,
  },
  'new_button-text': {
    label: 'Button with text',
    params: ['theme', 'color', ...COMMON],
    width: 230,
    minWidth: 210,
    minHeight: 44,
    lists: false,
  },
  'new_button-stars': {
    label: 'Button with stars',
    params: ['theme', 'color', ...COMMON],
    width: 230,
    minWidth: 200,
    minHeight: 44,
    lists: false,
  },
  new_button_logo: {
    label: 'Button with logo',
    params: ['theme', 'color', ...COMMON],
    width: 260,
    minWidth: 230,
    minHeight: 44,
    lists: false,
  },
  'new_button_logo-score': {
    label: 'Button with logo and score',
    params: ['theme', 'color', ...COMMON],
    width: 200,
    minWidth: 180,
    minHeight: 56,
    lists: false,
  },
  'new_button_logo-sm': {
    label: 'Small logo button',
    params: ['theme', 'color', ...COMMON],
    width: 110,
    minWidth: 100,
    minHeight: 40,
    lists: false,
  },
  new_balloon: {
    label: 'Balloon',
    params: ['theme', 'color', ...COMMON],
    width: 200,
    minWidth: 180,
    minHeight: 120,
    lists: false,
  },
  modern: {
    label: 'Modern cards',
    params: [...REVIEW_PARAMS, ...COMMON],
    width: 640,
    minWidth: 280,
    minHeight: 0,
    lists: true,
  },
};

export function isLayout(value: string): value is Layout {
  return (LAYOUTS as readonly string[]).includes(value);
}

export function takes(layout: Layout, param: WidgetParam): boolean {
  return LAYOUT_INFO[layout].params.includes(param);
}

/**
 * The height (px) a layout needs to show everything it was asked for: the default for `height`, and what the
 * configurator proposes. Review layouts grow with `amount` in list view.
 */
export function recommendedHeight(
  layout: Layout,
  options: { show: boolean; view: 'slider' | 'list'; amount: number; photos?: boolean },
): number {
  // A row of thumbnails (56 px and its margin) under each review shown, only with `photos=yes`.
  const row = options.photos && options.show ? 62 : 0;
  if (row)
    return (
      recommendedHeight(layout, { ...options, photos: false }) +
      row * (options.view === 'list' && layout === 'new_default' ? options.amount : 1)
    );
  if (layout === 'new_default') {
    if (!options.show) return 84;
    return options.view === 'slider' ? 260 : 84 + options.amount * 150;
  }
  if (layout === 'modern') {
    if (!options.show) return 84;
    return options.view === 'slider' ? 270 : 250;
  }
  return LAYOUT_INFO[layout].minHeight;
}
