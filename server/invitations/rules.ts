// The invitations' rules that are not I/O: what makes two invitations the same.
import { randomUUID } from 'node:crypto';

/**
 * "Same e-mail and order means the same invitation": the key of the store's unique index. Address and order when
 * there is an order, else unique (a newline never occurs in either).
 */
export function dedupeKey(email: string, order: string): string {
  return order ? `${email}\n${order}` : `none:${randomUUID()}`;
}
