// XML text for the product review feed and its error responses. Every text is escaped, and the characters XML 1.0
// forbids (control characters other than tab and line breaks, U+FFFE/U+FFFF, lone surrogates) are dropped: one
// stray byte in a review must not make the whole document unreadable for the shop that syncs it.
import type { Readable } from 'node:stream';

// eslint-disable-next-line no-control-regex
const FORBIDDEN =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

/** The text without characters XML 1.0 cannot carry. */
export function xmlSafe(value: string): string {
  return value.replace(FORBIDDEN, '');
}

/** Text or attribute content: forbidden characters dropped, markup characters escaped. */
export function escapeXml(value: string): string {
  return xmlSafe(value).replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

export const XML_CONTENT_TYPE = 'application/xml; charset=utf-8';

/** A whole XML document an endpoint answers (see classic()); a stream for a document too large to hold (the feed). */
export class XmlDocument {
  constructor(readonly text: string | Readable) {}
}

/** The error document of the XML endpoints (see docs/decisions.md). */
export function xmlErrorBody(message: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<response><status>error</status><message>${escapeXml(message)}</message></response>\n`;
}
