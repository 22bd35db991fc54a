// The e-mail feature's pages: the unsubscribe link of invitation e-mails (GET shows a confirm button; POST, also
// RFC 8058's one-click POST from the mail client, records the wish), and, in development without SMTP_URL,
// GET /dev/outbox listing what would have been sent.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type Router from '@koa/router';
import type { Context } from 'koa';
import { sendError } from '../http/errors.js';
import { isLoopbackRequest } from '../http/local.js';
import type { Language } from '../languages.js';
import { MAIL_STRINGS, fill } from './strings.js';
import { escapeHtml } from '../http/html.js';
import { LINK_SECRET_FORMAT } from '../links.js';
import { listOutbox, OUTBOX_FILE } from './outbox.js';
import { outboxDir } from './transport.js';
import { unsubscribe, unsubscribeTarget, type UnsubscribeDeps } from './unsubscribe.js';
import type { Mailer } from './mailer.js';

const PAGE_HEADERS = {
  'Content-Security-Policy':
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  // The token is in the URL: it must not travel to other sites, caches or search engines.
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
  'X-Robots-Tag': 'noindex',
};

/** `j•••@example.com`: enough for the customer to recognise, little for anyone the link was forwarded to. */
function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 1) return '•••';
  return `${email.slice(0, 1)}•••${email.slice(at)}`;
}

function page(ctx: Context, status: number, language: Language, title: string, body: string): void {
  ctx.status = status;
  ctx.set(PAGE_HEADERS);
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = [
    '<!doctype html>',
    `<html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">`,
    `<title>${escapeHtml(title)}</title>`,
    '<style>body{margin:0;padding:24px;background:#f4f4f5;font:16px/1.5 system-ui,Arial,sans-serif;color:#18181b}',
    'main{max-width:480px;margin:10vh auto;background:#fff;border-radius:8px;padding:24px}',
    'button{font:inherit;background:#2563eb;color:#fff;border:0;border-radius:6px;padding:10px 18px;cursor:pointer}',
    'button:focus-visible{outline:3px solid #1e3a8a;outline-offset:2px}</style></head>',
    `<body><main><h1 style="font-size:1.25rem;margin-top:0">${escapeHtml(title)}</h1>${body}</main></body></html>`,
  ].join('');
}

/** What the mail pages use: the unsubscribe service's deps, and whether e-mails go to the development outbox. */
export type MailRouteDeps = UnsubscribeDeps & {
  config: { production: boolean; baseUrl: string; dataDir: string };
  mailer: Pick<Mailer, 'kind'>;
};

export function registerMailRoutes(router: Router, deps: MailRouteDeps): void {
  const { config } = deps;

  /** The invitation and shop behind an unsubscribe link, or undefined (after answering with a 404 page). */
  const lookUp = async (ctx: Context) => {
    const token = ctx.params.token;
    const found =
      typeof token === 'string' && LINK_SECRET_FORMAT.test(token) ? await unsubscribeTarget(deps, token) : null;
    if (!found) {
      const s = MAIL_STRINGS.en;
      page(ctx, 404, 'en', s.unsubscribeTitle, `<p>${escapeHtml(s.unsubscribeInvalid)}</p>`);
      return undefined;
    }
    return found;
  };

  router.get('/unsubscribe/:token', async (ctx) => {
    const found = await lookUp(ctx);
    if (!found) return;
    const { invitation, shop } = found;
    const s = MAIL_STRINGS[invitation.language];
    const question = fill(s.unsubscribeQuestion, { shop: shop.name, email: maskEmail(invitation.email) });
    page(
      ctx,
      200,
      invitation.language,
      s.unsubscribeTitle,
      `<p>${escapeHtml(question)}</p><form method="post"><button type="submit">${escapeHtml(s.unsubscribeButton)}</button></form>`,
    );
  });

  // The body (RFC 8058 sends `List-Unsubscribe=One-Click`) says nothing we need: the token is the request.
  router.post('/unsubscribe/:token', async (ctx) => {
    const found = await lookUp(ctx);
    if (!found) return;
    const { invitation, shop } = found;
    await unsubscribe(deps, found);
    const s = MAIL_STRINGS[invitation.language];
    const done = fill(s.unsubscribeDone, { shop: shop.name, email: maskEmail(invitation.email) });
    page(ctx, 200, invitation.language, s.unsubscribeTitle, `<p>${escapeHtml(done)}</p>`);
  });

  const outboxAllowed = (ctx: Context) =>
    deps.mailer.kind === 'outbox' && !config.production && isLoopbackRequest(ctx, config.baseUrl);

  router.get('/dev/outbox', async (ctx) => {
    if (!outboxAllowed(ctx)) return sendError(ctx, 404, 'Not found.');
    const entries = await listOutbox(outboxDir(config));
    ctx.set('Cache-Control', 'no-store');
    if (ctx.accepts('html', 'json') === 'json') {
      ctx.body = { messages: entries };
      return;
    }
    const rows = entries
      .map(
        (e) =>
          `<tr><td>${escapeHtml(e.date)}</td><td>${escapeHtml(e.to)}</td>` +
          `<td><a href="/dev/outbox/${encodeURIComponent(e.file)}">${escapeHtml(e.subject || '(no subject)')}</a></td></tr>`,
      )
      .join('');
    ctx.type = 'text/html; charset=utf-8';
    ctx.set('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'");
    ctx.body =
      '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Outbox</title>' +
      '<style>body{font:14px system-ui,sans-serif;margin:24px}td,th{padding:4px 12px;text-align:left;border-bottom:1px solid #ddd}</style>' +
      `</head><body><h1>Outbox</h1><p>E-mails written to ${escapeHtml(outboxDir(config))} instead of being sent ` +
      '(no SMTP_URL is configured). Newest first.</p>' +
      `<table><thead><tr><th>Date</th><th>To</th><th>Subject</th></tr></thead><tbody>${rows}</tbody></table></body></html>`;
  });

  router.get('/dev/outbox/:file', async (ctx) => {
    const file = ctx.params.file ?? '';
    if (!outboxAllowed(ctx) || !OUTBOX_FILE.test(file)) return sendError(ctx, 404, 'Not found.');
    try {
      ctx.body = await readFile(join(outboxDir(config), file));
    } catch {
      return sendError(ctx, 404, 'Not found.');
    }
    // As text, so the browser shows the raw message instead of downloading it.
    ctx.type = 'text/plain; charset=utf-8';
    ctx.set('Cache-Control', 'no-store');
  });
}
