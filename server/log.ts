// Structured logging. Credentials never reach the log: known secret fields are redacted by pino, and URLs are
// logged through redactUrl, which masks the path segments and query parameters that carry credentials.
import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger };

const SECRET_KEYS = ['code', 'token', 'secret', 'password', 'authorization', 'admin_token', 'review_token'];

/** `destination`: standard output unless given (tests read what would be logged). */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = {
    level,
    redact: {
      paths: [...SECRET_KEYS, ...SECRET_KEYS.map((k) => `*.${k}`), 'req.headers.authorization', 'req.headers.cookie'],
      censor: '[redacted]',
    },
  };
  return destination ? pino(options, destination) : pino(options);
}

/**
 * The path segment after these is a credential: review, edit and confirmation links, unsubscribe links, domain
 * tokens (/admin/api/tokens/…) and dashboard sign-in links (but /dashboard/sign-in/new, the form's own address).
 * Any case: the router matches paths whatever their case.
 */
const SECRET_PATH = /\/(review|edit|confirm|unsubscribe|tokens|sign-in|appeal)\/(?!new(?:\/|$))[^/]+/gi;

/**
 * Query parameters masked besides SECRET_KEYS: an address is personal data, which a log kept after an erasure must
 * not hold; `key` is the Google feed's (feed/google-routes.ts).
 */
const URL_KEYS = [...SECRET_KEYS, 'email', 'key'];

/** Masks the credentials (and addresses) in a URL's path and query for logging. */
export function redactUrl(url: string): string {
  const mark = url.indexOf('?');
  const path = mark < 0 ? url : url.slice(0, mark);
  const safePath = path.replace(SECRET_PATH, '/$1/[redacted]');
  if (mark < 0) return safePath;
  // Parsed as Koa parses it (everything after the first `?`, keys decoded), so a key the routes read is a key masked.
  const params = new URLSearchParams(url.slice(mark + 1));
  for (const key of [...params.keys()]) {
    if (URL_KEYS.includes(key.toLowerCase())) params.set(key, '[redacted]');
  }
  return `${safePath}?${params.toString()}`;
}
