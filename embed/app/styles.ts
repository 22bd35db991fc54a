// The embed's styles, adopted by its shadow root: nothing leaks into the shop's page, and the page's styles reach
// only the host element, which is reset (see main.tsx). Pixel units only: the page's root font size must not
// scale us. Colours meet WCAG AA contrast in both themes; motion only when the visitor has not asked for less. The
// sidebar, bar and tab draw their focus ring inside themselves, on our background: around them is the shop's page,
// whose colours we do not know.
export const CSS = `
*{box-sizing:border-box}
.t{font:14px/1.45 system-ui,sans-serif;color:var(--fg)}
.dark{--bg:#1c2127;--fg:#f4f6f8;--mu:#c5ccd4;--ac:#ffc940;--bt:#ffc940;--bf:#14181c;--bd:#8b95a1;--fo:#8cc8ff;--pn:#2a313a;--er:#ffa4a4;--ok:#9be3b0}
.light{--bg:#fff;--fg:#1c2127;--mu:#4a5360;--ac:#b45309;--bt:#0b57d0;--bf:#fff;--bd:#6f7885;--fo:#0b57d0;--pn:#f1f3f5;--er:#b3261e;--ok:#146c2e}
button,input,select,textarea{font:inherit;color:inherit;margin:0}
.pager,.rated{display:flex;flex-wrap:wrap;gap:10px;align-items:center}
button{cursor:pointer;background:none;border:0;padding:0}
:focus-visible{outline:3px solid var(--fo);outline-offset:2px}
.side:focus-visible,.bar:focus-visible,.tab:focus-visible{outline-offset:-6px}
.tuck :is(.side,.bar,.tab){opacity:0;pointer-events:none}
a{color:var(--fo)}
.sr{position:absolute!important;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.mu{color:var(--mu)}
.small,.foot{font-size:12px}
svg{width:16px;height:16px;flex:none;fill:currentColor;vertical-align:-3px}
.stars{position:relative;display:inline-block;width:80px;height:16px;color:var(--ac)}
.stars svg{width:80px;fill:none;stroke:currentColor;stroke-width:1.5}
.stars span{position:absolute;top:0;left:0;height:16px;overflow:hidden}
.stars span svg{fill:currentColor}
.summary{display:flex;flex-direction:column;align-items:center;gap:2px}
.big{font-size:28px;font-weight:700;line-height:1.1}
.of{font-size:14px;font-weight:400;color:var(--mu)}
.side,.bar,.tab,.tip,dialog{position:fixed;background:var(--bg);color:var(--fg);border:1px solid var(--bd);border-radius:12px;box-shadow:0 4px 16px #0005}
.side,.tip{display:flex;flex-direction:column;align-items:center;gap:4px;padding:10px}
.side{min-width:100px;text-align:center}
.side .mu{font-size:12px}
.left{left:0;border-left:0;border-radius:0 12px 12px 0}
.right{right:0;border-right:0;border-radius:12px 0 0 12px}
.icons,.bar svg,.tab svg,.badges svg{color:var(--ac)}
.icons{display:flex;gap:6px}
.bar{top:0;left:0;right:0;height:48px;display:flex;align-items:center;justify-content:center;gap:6px;border-width:0 0 1px;border-radius:0}
.tab{display:flex;align-items:center;gap:4px;min-height:44px;padding:8px 14px}
.tip{width:288px}
.badges,.list ul{list-style:none;margin:8px 0 0;padding:0}
.badges li{display:flex;gap:6px;margin-bottom:4px}
dialog{position:fixed;width:min(560px,calc(100vw - 24px));max-width:none;max-height:min(88vh,760px);padding:0;border-radius:14px;overflow:auto}
.dlg{padding:20px}
dialog::backdrop{background:#0a0c0f99}
.sheet{width:100vw;max-height:85vh;margin-left:0;margin-right:0}
.sheet.bottom{margin-bottom:0;border-radius:14px 14px 0 0}
.sheet.top{margin-top:0;border-radius:0 0 14px 14px}
.x{position:absolute;top:10px;right:10px;width:44px;height:44px;display:flex;align-items:center;justify-content:center;border-radius:8px}
.x svg{width:20px;height:20px;stroke:currentColor;stroke-width:2.5}
h2{font-size:20px;margin:4px 48px 12px 0}
h3{font-size:15px;margin:18px 0 6px}
p{margin:0 0 8px}
dl{display:grid;grid-template-columns:auto 1fr;gap:4px 12px;margin:0}
dd{margin:0}
.btn,.btn2{min-height:44px;padding:10px 18px;border-radius:10px;font-weight:600}
.btn{background:var(--bt);color:var(--bf)}
.btn2{border:2px solid var(--bd)}
[aria-disabled=true]{opacity:.6;cursor:default}
.pager{justify-content:space-between;margin-top:8px}
.review{padding:12px 0;border-top:1px solid var(--bd)}
.lab{font-size:12px;font-weight:600;color:var(--mu)}
.verified_order{color:var(--ok)}
.text{white-space:pre-line;overflow-wrap:anywhere}
.reply{padding:8px 10px;border-radius:8px;background:var(--pn)}
.foot{margin:16px 0 0}
.err{color:var(--er);font-weight:600}
.ph{object-fit:cover;border-radius:6px;margin:4px 4px 0 0}
@media (prefers-reduced-motion:no-preference){dialog[open]{animation:rise .18s ease-out}}
@keyframes rise{from{opacity:0;transform:translateY(12px)}}
`;

/** The consent pop-up's and the review form's own rules: they come with form.js (more.ts). */
export const FORM_CSS = `
.actions{display:flex;flex-wrap:wrap;gap:10px;align-items:center}
.done{font-size:16px;outline:0}
fieldset{border:0;margin:0 0 12px;padding:0;min-width:0}
legend,label{font-weight:600}
.subs{display:grid;grid-template-columns:repeat(auto-fit,minmax(220px,1fr));column-gap:16px}
.rate label{display:inline-flex;padding:4px;cursor:pointer;color:var(--mu)}
.rate .on{color:var(--ac)}
.rate .none{align-items:center;min-height:36px;margin-right:4px;font-size:12px;text-decoration:underline}
.rate input:checked+.none{color:var(--fg);font-weight:600;text-decoration:none}
.rate svg{width:28px;height:28px}
.rate input:focus-visible+label{outline:3px solid var(--fo);border-radius:6px}
.field{display:flex;flex-direction:column;gap:4px}
input,select,textarea{width:100%;min-height:44px;padding:8px 10px;border:1px solid var(--bd);border-radius:8px;background:var(--bg)}
[aria-invalid=true]{border-color:var(--er)}
.hp{position:absolute;left:-9999px}
.lnk{align-self:start;min-height:44px;color:var(--fg);text-decoration:underline}
`;

let root: ShadowRoot;

/** Adds rules to the embed's shadow root (the first call names the root). */
export function adopt(css: string, to: ShadowRoot = root): void {
  root = to;
  try {
    // A constructed sheet is not inline style as far as a Content Security Policy is concerned.
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
  } catch {
    const style = document.createElement('style');
    style.textContent = css;
    root.append(style);
  }
}

/** The host element's own style: reset whatever the page says about divs, and take no room in its layout. */
export const HOST_CSS =
  'all:initial!important;position:fixed!important;top:0!important;left:0!important;width:0!important;height:0!important;display:block!important;z-index:2147483000!important';
