// HTML the server writes itself: escaping, and the hash by which its strict Content Security Policies allow an
// inline script or style. Pure: error pages and e-mails escape with it; the built scripts are read by
// inline-script.ts.
import { createHash } from 'node:crypto';

/** Text for HTML element content and quoted attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The CSP source that allows exactly this inline script or style. */
export function cspHash(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}
