// Customer e-mail addresses: what we accept and the one form we store, so dedupe, per-address limits and
// erasure all compare the same string.

// Letters and digits of any script, so internationalised addresses pass; no quotes, spaces or control characters
// (the address ends up in a mail header).
const LOCAL = /^[\p{L}\p{N}!#$%&'*+/=?^_`{|}~-]+(?:\.[\p{L}\p{N}!#$%&'*+/=?^_`{|}~-]+)*$/u;
const LABEL = /^[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?$/u;

/** Trims and lower-cases the domain (domains are case-insensitive; the local part, strictly, is not). */
export function normalizeEmail(input: string): string {
  const value = input.trim();
  const at = value.lastIndexOf('@');
  if (at < 0) return value;
  return `${value.slice(0, at)}@${value.slice(at + 1).toLowerCase()}`;
}

/** A deliverable-looking address: one `@`, a sane local part, and a domain with at least two labels. */
export function isValidEmail(address: string): boolean {
  if (address.length > 254) return false;
  const at = address.indexOf('@');
  if (at < 1 || at !== address.lastIndexOf('@')) return false;
  const local = address.slice(0, at);
  const labels = address.slice(at + 1).split('.');
  if (local.length > 64 || !LOCAL.test(local)) return false;
  if (labels.length < 2 || !labels.every((l) => LABEL.test(l))) return false;
  // A top-level domain is never all digits: that is an IP address, not a mail domain.
  return !/^\d+$/.test(labels[labels.length - 1]!);
}

const literally = (text: string) => text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');

/** A query filter matching the address whatever its case: erasure must not miss `Jane@…` when asked for `jane@…`. */
export function sameAddress(email: string): { $regex: string; $options: string } {
  return { $regex: `^${literally(email)}$`, $options: 'i' };
}

/** A query filter matching a text that contains the address, whatever its case (an SMTP error that quotes it). */
export function mentionsAddress(email: string): { $regex: string; $options: string } {
  return { $regex: literally(email), $options: 'i' };
}
