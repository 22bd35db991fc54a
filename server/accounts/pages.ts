// The sign-in pages: server-rendered, no script at all, so they work before the dashboard's app has loaded and in
// a mail client's browser. The page a link opens only shows a button (a mail scanner that follows the link uses
// nothing up); the button POSTs the secret. Every page forbids framing (clickjacking of the button) and sends no
// Referer (the address holds the secret).
import type { Context, Middleware } from 'koa';
import { HttpError, sendError } from '../http/errors.js';
import { cspHash, escapeHtml } from '../http/html.js';
import { fill } from '../../embed/shared/text.js';
import { PAGE_STRINGS, pageLanguage, type PageLanguage, type PageStrings } from './strings.js';

const STYLE = [
  ':root{color-scheme:light dark;--bg:#f4f4f5;--card:#fff;--fg:#18181b;--muted:#52525b;--accent:#1d4ed8;--line:#a1a1aa}',
  '@media (prefers-color-scheme:dark){:root{--bg:#18181b;--card:#27272a;--fg:#fafafa;--muted:#d4d4d8;--accent:#93c5fd;--line:#71717a}}',
  'body{margin:0;padding:24px 16px;background:var(--bg);color:var(--fg);font:16px/1.5 system-ui,sans-serif}',
  'main{max-width:28rem;margin:10vh auto 0;background:var(--card);border-radius:8px;padding:24px}',
  'h1{font-size:1.4rem;margin:0 0 12px}p{margin:0 0 16px;color:var(--muted)}',
  'label{display:block;font-weight:600;margin:0 0 4px}',
  'input[type=email]{box-sizing:border-box;width:100%;font:inherit;padding:10px;border:1px solid var(--line);border-radius:6px;background:var(--card);color:var(--fg);margin:0 0 16px}',
  'button{font:inherit;font-weight:600;padding:10px 20px;border:0;border-radius:6px;background:var(--accent);color:var(--card);cursor:pointer}',
  'button:focus-visible,input:focus-visible,a:focus-visible{outline:3px solid var(--accent);outline-offset:2px}',
  'a{color:var(--accent)}',
].join('\n');

/** No script, one inline style allowed by its hash, forms only to this origin, never framed. */
const PAGE_CSP = `default-src 'none'; style-src ${cspHash(STYLE)}; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`;

interface PageContext {
  lang: PageLanguage;
  t: PageStrings;
  brandName: string;
}

export function pageContext(ctx: Context, brandName: string): PageContext {
  const lang = pageLanguage(ctx.acceptsLanguages());
  return { lang, t: PAGE_STRINGS[lang], brandName };
}

function page(p: PageContext, title: string, body: string): string {
  return [
    '<!doctype html>',
    `<html lang="${p.lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">`,
    `<meta name="referrer" content="no-referrer"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head>`,
    `<body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`,
  ].join('\n');
}

export function signInPage(p: PageContext, secret: string): string {
  return page(
    p,
    fill(p.t.signInTitle, { brand: p.brandName }),
    `<p>${escapeHtml(p.t.signInBody)}</p>` +
      '<form method="post" action="/dashboard/sign-in">' +
      `<input type="hidden" name="token" value="${escapeHtml(secret)}">` +
      `<button type="submit">${escapeHtml(p.t.signInButton)}</button></form>`,
  );
}

type LinkProblem = 'used' | 'expired' | 'unknown';

/** A link that does not sign in: why, and the form to ask for a new one. */
export function linkProblemPage(p: PageContext, problem: LinkProblem): string {
  const texts: Record<LinkProblem, [string, string]> = {
    used: [p.t.usedTitle, p.t.usedBody],
    expired: [p.t.expiredTitle, p.t.expiredBody],
    unknown: [p.t.unknownTitle, p.t.unknownBody],
  };
  const [title, text] = texts[problem];
  return page(p, title, `<p>${escapeHtml(text)}</p>${newLinkForm(p)}`);
}

function newLinkForm(p: PageContext): string {
  return (
    '<form method="post" action="/dashboard/sign-in/new">' +
    `<label for="email">${escapeHtml(p.t.emailLabel)}</label>` +
    '<input id="email" name="email" type="email" autocomplete="email" required maxlength="254">' +
    `<button type="submit">${escapeHtml(p.t.newLinkButton)}</button></form>`
  );
}

export function linkSentPage(p: PageContext): string {
  return page(
    p,
    p.t.sentTitle,
    `<p>${escapeHtml(p.t.sentBody)}</p><p><a href="/dashboard/">${escapeHtml(p.t.backToDashboard)}</a></p>`,
  );
}

export function sendPage(ctx: Context, status: number, html: string): void {
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.set('Content-Security-Policy', PAGE_CSP);
  ctx.set('Referrer-Policy', 'no-referrer');
  ctx.set('Cache-Control', 'no-store');
  ctx.vary('Accept-Language');
  ctx.body = html;
}

/**
 * For the route group of the dashboard's pages: whatever answers (the app, a sign-in page, an error page of the
 * route table, a 429) may not be framed.
 */
export function noFraming(): Middleware {
  return async (ctx, next) => {
    ctx.set('X-Frame-Options', 'DENY');
    try {
      await next();
    } catch (err) {
      // Answered here rather than by the app's error handler, so the page gets its frame-ancestors below.
      if (!(err instanceof HttpError)) throw err;
      for (const [name, value] of Object.entries(err.headers)) ctx.set(name, value);
      sendError(ctx, err.status, err.message, err.code);
    }
    const csp = ctx.response.get('Content-Security-Policy');
    if (csp && !/frame-ancestors/.test(csp)) ctx.set('Content-Security-Policy', `${csp}; frame-ancestors 'none'`);
  };
}
