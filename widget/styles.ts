// The widget's CSS, in pieces: each page inlines only the pieces its layout uses. Colours come from custom
// properties set per page (themeCss), so the pieces are constant strings.
import { readableOn, textOn } from './color.js';
import type { Layout } from './layouts.js';

const BASE =
  '*{box-sizing:border-box;margin:0;padding:0}' +
  'html,body{height:100%;overflow:hidden}' +
  'html{background:var(--bg)}' +
  'body{font:14px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;color:var(--fg)}' +
  'a{color:var(--ac)}' +
  ':focus-visible{outline:2px solid var(--ac);outline-offset:-2px}' +
  '.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}' +
  // Positioned, so that the visually hidden texts (.sr) are clipped with everything else.
  '.w{position:relative;height:100%;overflow:hidden}' +
  // Stars: five glyphs filled to --p by a gradient clipped to the text (no images, no per-star markup).
  '.st{display:inline-block;white-space:nowrap;line-height:1;font-size:16px;color:transparent;' +
  'background:linear-gradient(90deg,var(--sc) var(--p),var(--off) 0);-webkit-background-clip:text;background-clip:text}' +
  '@media (forced-colors:active){.st{color:CanvasText}}' +
  Array.from({ length: 11 }, (_, i) => `.s${i}{--p:${i * 10}%}`).join('') +
  '.mu{color:var(--mu)}' +
  '.lg{width:22px;height:22px;fill:var(--ac);flex:none}' +
  // The policy link of every layout (components.tsx PolicyLink): an "i" in the top right corner.
  '.w>.pl{position:absolute;top:0;right:0;z-index:1;display:grid;place-items:center;width:24px;height:24px;padding:0;' +
  'border-radius:50%;background:var(--bg);border:1px solid var(--bd);color:var(--fg);text-decoration:none}' +
  '.pl::before{content:"i";font:italic 700 13px/1 Georgia,serif}';

const HEADER =
  '.hd{display:flex;align-items:center;gap:12px;min-width:0}' +
  '.sc{flex:none;display:grid;place-items:center;width:52px;height:52px;border-radius:10px;' +
  'background:var(--br);color:var(--on);font-size:20px;font-weight:700}' +
  '.hi{min-width:0}' +
  // Room for the policy link's "i" in the corner.
  '.hd{padding-right:26px}' +
  // The link to all reviews wraps rather than being cut short (also under WCAG 1.4.12's wider text spacing).
  '.hi p{overflow-wrap:anywhere}';

const REVIEWS =
  '.rv{list-style:none;min-width:0;overflow:hidden}' +
  '.rh{display:flex;align-items:center;gap:8px;white-space:nowrap;min-width:0}' +
  '.rh b{overflow:hidden;text-overflow:ellipsis}' +
  '.rh .st{font-size:14px}' +
  '.rh time{margin-left:auto;font-size:12px}' +
  '.rc,.rp{display:-webkit-box;-webkit-box-orient:vertical;overflow:hidden;overflow-wrap:anywhere}' +
  '.rc{-webkit-line-clamp:3;margin-top:4px}' +
  '.rp{margin-top:6px;padding-left:10px;border-left:3px solid var(--bd);font-size:13px;-webkit-line-clamp:2}' +
  '.em{align-self:center;margin:auto}' +
  // Origin labels and the report link (issue 11), one small line under the review.
  // One line whatever the width (a narrow chip ends in an ellipsis; its title and the screen-reader text say it all):
  // the layouts keep the heights merchants' snippets carry, so the review shows two lines, and the reply one (two in a
  // list before the experience date took its line, issue 21: the full reply is on the shop's page).
  '.lb{display:flex;gap:8px;margin-top:2px;font-size:11px;line-height:1.3;color:var(--mu);white-space:nowrap;overflow:hidden}' +
  '.lb>span{min-width:0;overflow:hidden;text-overflow:ellipsis;border:1px solid var(--bd);border-radius:999px;padding:0 6px}' +
  '.lb a{flex:none;margin-left:auto}' +
  // The experience date: one small line, at the right under the review's date.
  '.ex{font-size:11px;line-height:1.2;text-align:right;color:var(--mu);white-space:nowrap;overflow:hidden;text-overflow:ellipsis}' +
  '.rv .rc{-webkit-line-clamp:2}.rv .rp{-webkit-line-clamp:1}';

// A list shows whole reviews only: reviews that do not fit flow into a next column (or row), which is clipped.
const LIST =
  '.rl{flex:1;min-height:0;display:flex;flex-flow:column wrap;column-gap:40px;overflow:hidden}' +
  '.rl .rv{flex:none;width:100%}';

const SLIDER =
  '.sl{flex:1;min-height:0;display:flex;flex-direction:column}' +
  '.vp{flex:1;min-height:0;overflow:hidden}' +
  '.tr{display:flex;height:100%;transition:transform .4s ease}' +
  '.tr>.rv{flex:0 0 100%}' +
  // A slide gives the experience date's line (issue 21) room at a layout's narrowest width: tighter spacing.
  '.tr>.rv .rc{margin-top:2px}.tr>.rv .rp{margin-top:3px}' +
  '@media (prefers-reduced-motion:reduce){.tr{transition:none}}' +
  '.ct{display:flex;align-items:center;justify-content:flex-end;gap:2px;height:28px;flex:none}' +
  '.ct[hidden]{display:none}' +
  '.ct button{width:28px;height:28px;border:0;border-radius:6px;background:none;color:var(--fg);font:inherit;cursor:pointer}' +
  '.ct button:hover{background:var(--bd)}' +
  '.ct span{font-size:12px;padding:0 4px}';

const DEFAULT =
  '.d{display:flex;flex-direction:column;gap:10px;padding:12px}' +
  '.d .rv{padding-top:10px;border-top:1px solid var(--bd)}' +
  '.d .rl .rv{margin-bottom:10px}.d .tr>.rv{padding-top:6px}';

const MODERN =
  '.m{display:flex;flex-direction:column;gap:10px;padding:12px}' +
  '.m .hd{gap:10px;align-items:baseline}' +
  // Under WCAG 1.4.12's wider text spacing the row may not fit: the link then wraps rather than run out.
  '.m .hd a{overflow-wrap:anywhere}' +
  '.big{font-size:32px;font-weight:800;letter-spacing:-.02em}' +
  '.m .rl{flex-flow:row wrap;gap:40px 10px}' +
  '.m .rl .rv{flex:1 1 200px;width:auto;height:100%}' +
  '.m .rv{background:var(--card);border-radius:14px;padding:12px}.m .tr>.rv{padding:8px 12px}' +
  '.m .rc::before{content:"\\201C"}.m .rc::after{content:"\\201D"}';

// Buttons, badge and balloon are one link each; the page around them is transparent on the merchant's page.
const LINK_LAYOUT =
  'html{background:transparent}' +
  '.w>a{display:flex;align-items:center;height:100%;color:var(--fg);text-decoration:none;overflow:hidden;' +
  'background:var(--bg);border:1px solid var(--bd)}' +
  '.w>a:hover{border-color:var(--ac)}' +
  '.chip{flex:none;padding:3px 8px;border-radius:999px;background:var(--br);color:var(--on);font-weight:700}' +
  '.t{min-width:0;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}';

const BUTTON = '.w>a{gap:8px;padding:0 14px 0 6px;border-radius:999px}';

const BADGE =
  '.w>a{flex-direction:column;justify-content:center;gap:6px;border-radius:16px;padding:8px;text-align:center}' +
  '.seal{display:grid;place-items:center;width:62px;height:62px;border-radius:50%;background:var(--br);color:var(--on);' +
  'line-height:1.1;font-weight:800;font-size:21px}' +
  '.seal small{display:block;font-size:11px;font-weight:600}' +
  '.t{font-size:12px;max-width:100%}';

const BALLOON =
  '.w>a{flex-direction:column;align-items:stretch;border:0;background:none}' +
  '.bb{position:relative;flex:1;display:flex;flex-direction:column;justify-content:center;align-items:center;gap:4px;' +
  'background:var(--bg);border:2px solid var(--br);border-radius:16px;margin-bottom:12px;padding:6px;min-height:0}' +
  '.bb::after{content:"";position:absolute;left:22px;bottom:-12px;border:12px solid transparent;' +
  'border-top-color:var(--br);border-bottom:0}' +
  '.bb strong{font-size:18px}' +
  '.w>a:hover .bb{border-color:var(--ac)}';

export const LAYOUT_CSS: Record<Layout, string> = {
  new_default: HEADER + REVIEWS + LIST + SLIDER + DEFAULT,
  modern: HEADER + REVIEWS + LIST + SLIDER + MODERN,
  new_badges: LINK_LAYOUT + BADGE,
  'new_button-text': LINK_LAYOUT + BUTTON,
  'new_button-stars': LINK_LAYOUT + BUTTON,
  new_button_logo: LINK_LAYOUT + BUTTON,
  'new_button_logo-score': `${LINK_LAYOUT}${BUTTON}.two{display:flex;flex-direction:column;line-height:1.2;min-width:0}.two strong{font-size:18px}`,
  'new_button_logo-sm': `${LINK_LAYOUT}${BUTTON}.w>a{justify-content:center;padding:0 10px;gap:6px}.w>a strong{font-size:16px}`,
  new_balloon: LINK_LAYOUT + BALLOON,
};

export const BASE_CSS = BASE;

const THEMES = {
  light: { bg: '#ffffff', fg: '#1f2328', mu: '#57606a', bd: '#d0d7de', off: '#d0d7de' },
  dark: { bg: '#16191d', fg: '#f0f3f6', mu: '#b1bac4', bd: '#454c54', off: '#50575f' },
} as const;

/** The modern layout has its own look; theme and color do not apply to it. */
const MODERN_THEME =
  '--bg:#ffffff;--fg:#111827;--mu:#4b5563;--bd:#e5e7eb;--off:#d1d5db;--card:#f3f4f6;--br:#111827;--on:#ffffff;--ac:#111827;--sc:#b45309';

/** Custom properties for a theme and brand colour: text on the brand colour and accents always readable. */
export function themeCss(layout: Layout, theme: 'light' | 'dark', color: string): string {
  if (layout === 'modern') return `:root{${MODERN_THEME}}`;
  const t = THEMES[theme];
  const accent = readableOn(color, t.bg);
  return (
    `:root{--bg:${t.bg};--fg:${t.fg};--mu:${t.mu};--bd:${t.bd};--off:${t.off};` +
    `--br:${color};--on:${textOn(color)};--ac:${accent};--sc:${readableOn(color, t.bg, 3)}}`
  );
}

/** Only on pages that show photos (`photos=yes`): the other pages keep their bytes. */
export const PHOTOS_CSS =
  '.ph{display:flex;gap:6px;margin-top:6px;overflow:hidden;height:56px}' +
  '.ph a{flex:none;line-height:0}.ph img{width:56px;height:56px;object-fit:cover;border-radius:4px;background:var(--bd)}';
