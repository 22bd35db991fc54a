// The one digest the service stores in place of secrets and addresses: SHA-256 of UTF-8 text, lowercase hex.
import { createHash } from 'node:crypto';

export const sha256Hex = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');
