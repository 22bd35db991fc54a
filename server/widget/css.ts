// The widget's `css` parameter: either CSS rules, placed in the page's <style> element, or the URL of a stylesheet.
// Rules must not be able to leave the <style> element or run code, and may only load https stylesheets; the
// page's Content Security Policy then allows exactly those sources (see csp in widget/page.tsx).

export const CSS_MAX_LENGTH = 8000;

export type CustomCss =
  /** Rules, and the https stylesheets they @import (which the CSP must allow). */
  { kind: 'rules'; css: string; imports: string[] } | { kind: 'url'; url: string };

type CssResult = { ok: true; value: CustomCss } | { ok: false; problem: string };

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
  return css.replace(
    /\\(?:([0-9a-fA-F]{1,6})[ \t\n\r\f]?|(\r\n|[\n\r\f])|([\s\S]))/g,
    (_m, hex: string, newline: string, char: string) => {
      if (hex) {
        const code = Number.parseInt(hex, 16);
        return code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)
          ? '\ufffd'
          : String.fromCodePoint(code);
      }
      if (newline) return '';
      return char ?? '';
    },
  );
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
    return url
      ? { ok: true, value: { kind: 'url', url } }
      : { ok: false, problem: 'a stylesheet URL must be an https URL' };
  }
  // Only `</style` ends a <style> element, but no markup of any kind has a place in CSS.
  if (/<[a-z/!?]/i.test(value)) return { ok: false, problem: 'must not contain markup' };
  if (/[\u0000-\u0008\u000b\u000e-\u001f\u007f]/.test(value))
    return { ok: false, problem: 'must not contain control characters' };

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
  return { ok: true, value: { kind: 'rules', css: dropTextContent(value), imports: [...imports] } };
}

/**
 * Removes `content` declarations that would show text (anything but an empty string, `none` or `normal`): the
 * rules are a merchant's styling, and must not put words on the service's page under the shop's name. Dropped
 * rather than refused, so that existing iframes keep rendering. The checks above have passed: the result only
 * loses whole declarations, cut at the delimiters that end them, so it creates no new token.
 */
function dropTextContent(css: string): string {
  return removeRanges(
    css,
    declarationRanges(css).filter(([start, end]) => showsText(css.slice(start, end))),
  );
}

const EMPTY_CONTENT = /^(?:""|''|none|normal)$/i;

function showsText(declaration: string): boolean {
  const text = decodeCssEscapes(stripComments(declaration)).trim();
  const match = /^content\s*:([\s\S]*)$/i.exec(text);
  if (!match) return false;
  const value = match[1]!.replace(/!\s*important\s*$/i, '').trim();
  return !EMPTY_CONTENT.test(value);
}

const CLOSER: Record<string, string> = { '{': '}', '(': ')', '[': ']' };
const NAME_CHAR = /[A-Za-z0-9_\-\u0080-\uffff]/;

/**
 * Where each declaration is: the text between the delimiters (`{`, `;`, `}`) of a {}-block, found the way the
 * browser's CSS tokenizer and parser find them (comments, strings, escapes, url() and nested blocks), so that no
 * quoting can hide a declaration from us that the browser then applies. Preludes (before a `{`) are not included.
 */
function declarationRanges(css: string): [number, number][] {
  const ranges: [number, number][] = [];
  const open: { char: string; start: number }[] = [];
  const inBlock = () => open.at(-1)?.char === '{';
  let i = 0;
  while (i < css.length) {
    const c = css[i]!;
    if (c === '/' && css[i + 1] === '*') {
      const end = css.indexOf('*/', i + 2);
      i = end < 0 ? css.length : end + 2;
    } else if (c === '"' || c === "'") {
      i = endOfString(css, i);
    } else if (c === '#' || c === '@') {
      i = endOfName(css, i + 1); // a hash or at-keyword: `#url(` opens an ordinary block, not a url
    } else if (NAME_CHAR.test(c) || isEscape(css, i)) {
      const start = i;
      i = endOfName(css, i);
      if (
        css[i] === '(' &&
        decodeCssEscapes(css.slice(start, i)).toLowerCase() === 'url' &&
        !/^\(\s*["']/.test(css.slice(i))
      ) {
        i = endOfUrl(css, i + 1);
      }
    } else if (c === '{' || c === '(' || c === '[') {
      open.push({ char: c, start: i + 1 });
      i++;
    } else if (c === ';' && inBlock()) {
      ranges.push([open.at(-1)!.start, i]);
      open.at(-1)!.start = i + 1;
      i++;
    } else if (open.length > 0 && c === CLOSER[open.at(-1)!.char]) {
      if (c === '}') ranges.push([open.at(-1)!.start, i]);
      open.pop();
      // After a nested rule's block the enclosing block's next declaration begins.
      if (c === '}' && inBlock()) open.at(-1)!.start = i + 1;
      i++;
    } else {
      i++;
    }
  }
  // At the end of the input the browser closes every open block: their last declarations end there.
  for (const block of open) if (block.char === '{') ranges.push([block.start, css.length]);
  return ranges;
}

/** The index after a string that starts at `start` (an unescaped newline ends it too, as a bad string). */
function endOfString(css: string, start: number): number {
  const quote = css[start];
  let i = start + 1;
  while (i < css.length) {
    const c = css[i]!;
    if (c === quote) return i + 1;
    if (c === '\n' || c === '\r' || c === '\f') return i;
    i += c === '\\' && css.startsWith('\r\n', i + 1) ? 3 : c === '\\' ? 2 : 1;
  }
  return i;
}

/** A backslash that starts an escape (not one before a newline, which is not an escape outside strings). */
const isEscape = (css: string, i: number) => css[i] === '\\' && i + 1 < css.length && !/[\n\r\f]/.test(css[i + 1]!);

/** The index after a name (identifier characters and escapes) that starts at `start`. */
function endOfName(css: string, start: number): number {
  let i = start;
  while (i < css.length) {
    if (NAME_CHAR.test(css[i]!)) i++;
    else if (isEscape(css, i)) i = endOfEscape(css, i);
    else break;
  }
  return i;
}

/** The index after the escape at `start`: up to six hex digits and one whitespace after them, or one character. */
function endOfEscape(css: string, start: number): number {
  const hex = /^[0-9a-fA-F]{1,6}(?:\r\n|[ \t\n\r\f])?/.exec(css.slice(start + 1, start + 9));
  return start + 1 + (hex ? hex[0].length : 1);
}

/** The index after an unquoted url(…), which ends at the first unescaped `)` whatever it holds (even when bad). */
function endOfUrl(css: string, start: number): number {
  let i = start;
  while (i < css.length && css[i] !== ')') i += css[i] === '\\' ? 2 : 1;
  return Math.min(i + 1, css.length);
}

/** The text without the given ranges (which may overlap). */
function removeRanges(text: string, ranges: [number, number][]): string {
  let out = '';
  let at = 0;
  for (const [start, end] of [...ranges].sort((a, b) => a[0] - b[0])) {
    if (start > at) out += text.slice(at, start);
    at = Math.max(at, end);
  }
  return out + text.slice(at);
}
