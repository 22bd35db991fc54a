// Structured logging. Credentials never reach the log: known secret fields are redacted by pino, and URLs are
// logged through redactUrl, which masks the query parameters that carry credentials.
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

/** Masks credential-bearing query parameters (`code`, `token`, …) and review-token paths in a URL for logging. */
export function redactUrl(url: string): string {
  const [path = '', query] = url.split('?', 2);
  const safePath = path.replace(/\/(review|edit|confirm|unsubscribe|tokens)\/[^/]+/g, '/$1/[redacted]');
  if (query === undefined) return safePath;
  const params = new URLSearchParams(query);
  for (const key of [...params.keys()]) {
    if (SECRET_KEYS.includes(key.toLowerCase())) params.set(key, '[redacted]');
  }
  return `${safePath}?${params.toString()}`;
}
