// The widget's `css` parameter: either CSS rules, placed in the page's <style> element, or the URL of a stylesheet.
// Rules must not be able to leave the <style> element or run code, and may only load https stylesheets; the
// page's Content Security Policy then allows exactly those sources (see csp in widget/page.tsx).

export const CSS_MAX_LENGTH = 8000;

export type CustomCss =
  /** Rules, and the https stylesheets they @import (which the CSP must allow). */
  | { kind: 'rules'; css: string; imports: string[] }
  | { kind: 'url'; url: string };

export type CssResult = { ok: true; value: CustomCss } | { ok: false; problem: string };

// Characters a URL may keep in an href and a CSP source expression: no quotes, spaces, `;`, `,`, `<`, `>` or `\`.
const URL_SAFE = /^[A-Za-z0-9\-._~:/?#[\]@!$&()*+=%]+$/;

/** An absolute https URL that is safe in an attribute and a CSP header, normalised; undefined otherwise. */
export function httpsStylesheetUrl(raw: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' || url.username || url.password || !url.hostname) return undefined;
  return URL_SAFE.test(url.href) ? url.href : undefined;
}

/** The CSP source expression allowing exactly this stylesheet (CSP matches scheme, host, port and path). */
export function cspSourceFor(url: string): string {
  const u = new URL(url);
  return `${u.origin}${u.pathname}`;
}

/** Undoes CSS escapes (`\69`, `\i`), the way the browser's tokenizer reads them, so checks see what it sees. */
export function decodeCssEscapes(css: string): string {
  return css.replace(/\\(?:([0-9a-fA-F]{1,6})[ \t\n\r\f]?|(\r\n|[\n\r\f])|([\s\S]))/g, (_m, hex: string, newline: string, char: string) => {
    if (hex) {
      const code = Number.parseInt(hex, 16);
      return code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff) ? '\ufffd' : String.fromCodePoint(code);
    }
    if (newline) return '';
    return char ?? '';
  });
}

const stripComments = (css: string) => css.replace(/\/\*[\s\S]*?(?:\*\/|$)/g, ' ');

// Ways CSS has been made to run script or pull in behaviour in some browser; none belongs in a review widget.
const FORBIDDEN = ['javascript:', 'vbscript:', 'expression(', '-moz-binding', 'behavior:', 'behaviour:', '-o-link'];

const IMPORT = /@import\s*(?:url\(\s*)?(["']?)([^"')\s]*)\1/g;

/** Parses and checks a `css` value. Problems are phrased for the 400 page (after "css: "). */
export function parseCustomCss(input: string): CssResult {
  const value = input.trim();
  if (value.length > CSS_MAX_LENGTH) return { ok: false, problem: `must be at most ${CSS_MAX_LENGTH} characters` };
  if (/^(?:[a-z][a-z0-9+.-]*:|\/\/)\S*$/i.test(value) && !value.includes('{')) {
    const url = httpsStylesheetUrl(value.startsWith('//') ? `https:${value}` : value);
    return url ? { ok: true, value: { kind: 'url', url } } : { ok: false, problem: 'a stylesheet URL must be an https URL' };
  }
  // Only `</style` ends a <style> element, but no markup of any kind has a place in CSS.
  if (/<[a-z/!?]/i.test(value)) return { ok: false, problem: 'must not contain markup' };
  if (/[\u0000-\u0008\u000b\u000e-\u001f\u007f]/.test(value)) return { ok: false, problem: 'must not contain control characters' };

  const decoded = decodeCssEscapes(value);
  // Checked with and without comments: a comment can hide a token from us that a string around it makes real.
  const views = [decoded, stripComments(decoded)];
  for (const view of views) {
    const squeezed = view.toLowerCase().replace(/\s+/g, '');
    const bad = FORBIDDEN.find((token) => squeezed.includes(token));
    if (bad) return { ok: false, problem: `must not contain ${bad.replace(/[:(]$/, '')}` };
  }

  const imports = new Set<string>();
  for (const view of views) {
    const count = (view.match(/@import/gi) ?? []).length;
    const found = [...view.replace(/@import/gi, '@import').matchAll(IMPORT)];
    if (found.length !== count) return { ok: false, problem: '@import must name an https URL' };
    for (const match of found) {
      const url = httpsStylesheetUrl(match[2] ?? '');
      if (!url) return { ok: false, problem: '@import must name an https URL' };
      imports.add(url);
    }
  }
  return { ok: true, value: { kind: 'rules', css: value, imports: [...imports] } };
}
