// The e-mails' text and HTML parts. Pure functions from what a message is about to what it says; every value from
// a shop or a customer is escaped in the HTML part. The edit and confirmation e-mails say nothing a reviewer wrote:
// their address may be one the writer typed for someone else (see recipient-limit.ts).
import { escapeHtml } from '../http/html.js';
import type { Language } from '../languages.js';
import { MAIL_STRINGS, fill, type MailStrings } from './strings.js';

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

interface Common {
  language: Language;
  shopName: string;
  brandName: string;
  /** '' when unknown or not to be repeated: then the greeting has no name. */
  customerName: string;
}

/** An e-mail to whoever owns the address a review was written under: no greeting by the name the writer gave. */
type ToReviewAddress = Omit<Common, 'customerName'>;

/** Control characters (line breaks included) have no place in a subject line. */
const oneLine = (value: string) => value.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();

interface Parts {
  s: MailStrings;
  common: Common;
  subject: string;
  /** Paragraphs of plain text, before the button. */
  body: string[];
  /** Quoted blocks (a reply, the customer's own words), plain text. */
  quotes?: { label: string; text: string }[];
  button?: { label: string; url: string };
  /** Plain-text paragraphs after the button. */
  after?: string[];
  unsubscribe?: { line: string; label: string; url: string };
}

function compose(p: Parts): RenderedMail {
  const values = { shop: p.common.shopName, brand: p.common.brandName, name: p.common.customerName };
  const t = (template: string) => fill(template, values);
  const greeting = p.common.customerName ? t(p.s.helloName) : p.s.hello;
  const footer = t(p.s.footer);

  const text: string[] = [greeting, '', ...p.body.flatMap((b) => [b, ''])];
  for (const q of p.quotes ?? []) text.push(q.label, ...q.text.split('\n').map((l) => `> ${l}`), '');
  if (p.button) text.push(`${p.button.label}: ${p.button.url}`, '');
  for (const a of p.after ?? []) text.push(a, '');
  text.push('-- ', footer);
  if (p.unsubscribe) text.push(`${p.unsubscribe.line} ${p.unsubscribe.label}: ${p.unsubscribe.url}`);

  const para = (s: string) => `<p style="margin:0 0 16px">${escapeHtml(s)}</p>`;
  const html: string[] = [
    '<!doctype html>',
    `<html lang="${p.common.language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">`,
    `<title>${escapeHtml(p.subject)}</title></head>`,
    '<body style="margin:0;padding:24px;background:#f4f4f5;font:16px/1.5 Arial,Helvetica,sans-serif;color:#18181b">',
    '<div style="max-width:560px;margin:0 auto;background:#fff;border-radius:8px;padding:24px">',
    para(greeting),
    ...p.body.map(para),
  ];
  for (const q of p.quotes ?? []) {
    html.push(
      para(q.label),
      `<blockquote style="margin:0 0 16px;padding:8px 16px;border-left:4px solid #d4d4d8;white-space:pre-line">${escapeHtml(q.text)}</blockquote>`,
    );
  }
  if (p.button) {
    const href = escapeHtml(p.button.url);
    html.push(
      `<p style="margin:24px 0"><a href="${href}" style="display:inline-block;background:#2563eb;color:#fff;` +
        `text-decoration:none;padding:12px 20px;border-radius:6px;font-weight:bold">${escapeHtml(p.button.label)}</a></p>`,
      `<p style="margin:0 0 16px;font-size:13px;color:#52525b">${escapeHtml(p.s.linkFallback)}<br>` +
        `<a href="${href}" style="color:#2563eb;word-break:break-all">${href}</a></p>`,
    );
  }
  html.push(...(p.after ?? []).map(para), '</div>');
  html.push(`<p style="max-width:560px;margin:16px auto 0;font-size:12px;color:#71717a">${escapeHtml(footer)}`);
  if (p.unsubscribe) {
    html.push(
      `<br>${escapeHtml(p.unsubscribe.line)} <a href="${escapeHtml(p.unsubscribe.url)}" style="color:#71717a">` +
        `${escapeHtml(p.unsubscribe.label)}</a>`,
    );
  }
  html.push('</p></body></html>');

  return { subject: oneLine(p.subject), text: text.join('\n'), html: html.join('\n') };
}

const stringsFor = (c: Pick<Common, 'language'>) => MAIL_STRINGS[c.language];
const shopOnly = (template: string, c: Pick<Common, 'shopName'>) => fill(template, { shop: c.shopName });

export function invitationMail(c: Common & { reviewUrl: string; unsubscribeUrl: string }): RenderedMail {
  const s = stringsFor(c);
  return compose({
    s,
    common: c,
    subject: shopOnly(s.inviteSubject, c),
    body: [shopOnly(s.inviteBody, c)],
    button: { label: s.inviteButton, url: c.reviewUrl },
    unsubscribe: { line: shopOnly(s.unsubscribeLine, c), label: s.unsubscribeLink, url: c.unsubscribeUrl },
  });
}

/** The one reminder: the invitation's own links, its own subject and words. */
export function reminderMail(c: Common & { reviewUrl: string; unsubscribeUrl: string }): RenderedMail {
  const s = stringsFor(c);
  return compose({
    s,
    common: c,
    subject: shopOnly(s.reminderSubject, c),
    body: [shopOnly(s.reminderBody, c)],
    button: { label: s.inviteButton, url: c.reviewUrl },
    unsubscribe: { line: shopOnly(s.unsubscribeLine, c), label: s.unsubscribeLink, url: c.unsubscribeUrl },
  });
}

export function editMail(c: ToReviewAddress & { editUrl: string }): RenderedMail {
  const s = stringsFor(c);
  return compose({
    s,
    common: { ...c, customerName: '' },
    subject: shopOnly(s.editSubject, c),
    body: [shopOnly(s.editBody, c)],
    button: { label: s.editButton, url: c.editUrl },
  });
}

export function confirmMail(c: ToReviewAddress & { confirmUrl: string }): RenderedMail {
  const s = stringsFor(c);
  return compose({
    s,
    common: { ...c, customerName: '' },
    subject: shopOnly(s.confirmSubject, c),
    body: [shopOnly(s.confirmBody, c)],
    button: { label: s.confirmButton, url: c.confirmUrl },
    after: [s.confirmIgnore],
  });
}

/** The caller passes the writer's name and words only when the address is known to be the writer's. */
export function replyMail(c: Common & { reply: string; comment: string | null }): RenderedMail {
  const s = stringsFor(c);
  const quotes = [{ label: shopOnly(s.replyBody, c), text: c.reply }];
  if (c.comment) quotes.push({ label: s.replyYouWrote, text: c.comment });
  return compose({ s, common: c, subject: shopOnly(s.replySubject, c), body: [], quotes });
}

/**
 * A moderation decision or a complaint's answer (server/moderation/notices.ts writes its lines in the recipient's
 * language): to the writer, the statement of reasons quoted; to a reporter, the outcome only.
 */
export function decisionMail(
  c: ToReviewAddress & {
    subject: string;
    body: string[];
    quotes: { label: string; text: string }[];
    button?: { label: string; url: string };
    after: string[];
  },
): RenderedMail {
  const s = stringsFor(c);
  return compose({
    s,
    common: { ...c, customerName: '' },
    subject: oneLine(c.subject),
    body: c.body,
    quotes: c.quotes,
    ...(c.button ? { button: c.button } : {}),
    after: c.after,
  });
}

/**
 * The dashboard's sign-in link (server/accounts). `team`: the address was just added to a shop's team, so the
 * e-mail says by whom it is expected and where to ask for a new link once this one has run out.
 */
export function signInMail(
  c: Pick<Common, 'language' | 'brandName'> & {
    signInUrl: string;
    team?: { shopName: string; role: 'owner' | 'manager' | 'support'; requestUrl: string };
  },
): RenderedMail {
  const s = stringsFor(c);
  const values = { brand: c.brandName, shop: c.team?.shopName ?? c.brandName };
  const body = c.team
    ? [fill(s.teamAddedBody, { ...values, role: s.roleNames[c.team.role] }), fill(s.signInBody, values)]
    : [fill(s.signInBody, values)];
  const after = c.team ? [fill(s.teamAddedLater, { url: c.team.requestUrl }), s.signInIgnore] : [s.signInIgnore];
  return compose({
    // A sign-in is sent by the service itself, on no shop's behalf.
    s: c.team ? s : { ...s, footer: '{brand}' },
    common: { language: c.language, brandName: c.brandName, shopName: values.shop, customerName: '' },
    subject: fill(c.team ? s.teamAddedSubject : s.signInSubject, values),
    body,
    button: { label: s.signInButton, url: c.signInUrl },
    after,
  });
}
