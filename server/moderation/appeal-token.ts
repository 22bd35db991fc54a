// The complaint link's secret: 32 random bytes (256 bits), base64url, sent once in the e-mail and stored only as its
// SHA-256, so a copy of the database opens no complaint form. The log masks `/appeal/{token}` (server/log.ts).
import { randomBytes } from 'node:crypto';
import { sha256Hex } from '../hash.js';

export const newAppealToken = (): string => randomBytes(32).toString('base64url');

export const appealDigest = (token: string): string => sha256Hex(token);

/** What a link's token looks like; anything else is not looked up. */
export const isAppealTokenShape = (value: string): boolean => /^[A-Za-z0-9_-]{43}$/.test(value);
