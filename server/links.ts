// The service's public addresses, and the secrets inside the links it e-mails: each built in one place.
import { randomBytes } from 'node:crypto';

/** The shop's public review page. */
export const publicPageUrl = (baseUrl: string, shopId: number): string => `${baseUrl}/webshops/${shopId}`;

/** 192 random bits, URL-safe: the credential inside review, edit, confirmation and unsubscribe links. */
export const newLinkSecret = (): string => randomBytes(24).toString('base64url');

/** What our link secrets (and the mailer's) look like; anything else is not looked up at all. */
export const LINK_SECRET_FORMAT = /^[A-Za-z0-9_-]{16,128}$/;

/** The shop's review policy page ("How reviews are checked"), in a language when one is given. */
export const policyPageUrl = (baseUrl: string, shopId: number, language?: string): string =>
  `${publicPageUrl(baseUrl, shopId)}/policy${language ? `?lang=${language}` : ''}`;
