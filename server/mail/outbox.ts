// Reading the development outbox (DATA_DIR/outbox/*.eml) back for GET /dev/outbox: which messages, to whom, about
// what. Only the header block of each file is read.
import { open, readdir, readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';

interface OutboxEntry {
  file: string;
  date: string;
  to: string;
  subject: string;
  messageId: string;
}

/** Names the outbox writes (see outboxFileName); anything else is not served. */
export const OUTBOX_FILE = /^[0-9TZ]+-[A-Za-z0-9.@_-]+\.eml$/;

/** The header fields of a message (names lower-cased, folded lines joined, encoded words decoded). */
export function parseHeaders(raw: string): Record<string, string> {
  const end = raw.search(/\r?\n\r?\n/);
  const block = (end < 0 ? raw : raw.slice(0, end)).replace(/\r?\n[ \t]+/g, ' ');
  const headers: Record<string, string> = {};
  for (const line of block.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    if (!(name in headers)) headers[name] = decodeWords(line.slice(colon + 1).trim());
  }
  return headers;
}

/** Decodes RFC 2047 encoded words (`=?UTF-8?Q?Hallo_W=C3=B6rld?=`, `=?UTF-8?B?…?=`), as nodemailer writes them. */
export function decodeWords(value: string): string {
  return value
    .replace(/(\?=)\s+(=\?)/g, '$1$2')
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (whole, charset: string, enc: string, text: string) => {
      if (!/^utf-?8$/i.test(charset)) return whole;
      const bytes =
        enc.toUpperCase() === 'B'
          ? Buffer.from(text, 'base64')
          : Buffer.from(
              text
                .replace(/_/g, ' ')
                .replace(/=([0-9A-Fa-f]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))),
              'latin1',
            );
      return bytes.toString('utf8');
    });
}

/** The newest messages first, at most `limit`. */
export async function listOutbox(dir: string, limit = 200): Promise<OutboxEntry[]> {
  let files: string[];
  try {
    files = await readdir(dir);
  } catch {
    return [];
  }
  const names = files
    .filter((f) => OUTBOX_FILE.test(f))
    .sort()
    .reverse()
    .slice(0, limit);
  return Promise.all(
    names.map(async (file) => {
      const handle = await open(join(dir, file), 'r');
      try {
        const { buffer, bytesRead } = await handle.read(Buffer.alloc(16 * 1024), 0, 16 * 1024, 0);
        const h = parseHeaders(buffer.subarray(0, bytesRead).toString('utf8'));
        return { file, date: h.date ?? '', to: h.to ?? '', subject: h.subject ?? '', messageId: h['message-id'] ?? '' };
      } finally {
        await handle.close();
      }
    }),
  );
}

/**
 * Erasure: deletes the outbox messages with one of these Message-IDs and, given an address, every message that
 * contains it anywhere (any case); returns how many. Reads every message: the outbox is a development aid.
 */
export async function deleteOutboxMessages(
  dir: string,
  messageIds: ReadonlySet<string>,
  address?: string,
): Promise<number> {
  let files: string[];
  try {
    files = await readdir(dir);
  } catch {
    return 0;
  }
  const wanted = address?.toLowerCase();
  let deleted = 0;
  for (const file of files.filter((f) => OUTBOX_FILE.test(f))) {
    const path = join(dir, file);
    const raw = await readFile(path, 'utf8').catch(() => undefined);
    if (raw === undefined) continue;
    const theirs =
      messageIds.has(parseHeaders(raw)['message-id'] ?? '') || (wanted && raw.toLowerCase().includes(wanted));
    if (theirs && (await removed(path))) deleted++;
  }
  return deleted;
}

/** Deletes a file; false when it was gone already. Any other failure is the operator's to know about. */
async function removed(path: string): Promise<boolean> {
  try {
    await unlink(path);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
}
