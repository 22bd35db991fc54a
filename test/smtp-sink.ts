// A real SMTP server (the `smtp-server` package) on a loopback port for tests and benchmarks: it keeps what it
// receives and can answer chosen recipients with errors, or slowly.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { parseHeaders } from '../server/mail/outbox.js';

export interface ReceivedMail {
  to: string[];
  raw: string;
  /** Lower-cased header names, decoded values. */
  headers: Record<string, string>;
  messageId: string;
  /** The message with quoted-printable undone, good enough to search for links and words. */
  body: string;
}

interface SmtpSinkOptions {
  /** An error to answer a recipient with (`{ code: 550, message }`), or undefined to accept it. */
  rejectRecipient?: (address: string, count: number) => { code: number; message: string } | undefined;
  /** Wait this long before accepting each message (ms). */
  delayMs?: number;
  /** When it gives a promise, the message is recorded but answered only once that resolves (a peer that stalls). */
  hold?: () => Promise<void> | undefined;
  /** Keep only counts and Message-IDs (benchmarks). */
  light?: boolean;
  /** Listen on this port (a server started again where one was stopped); a free one by default. */
  port?: number;
}

export interface SmtpSink {
  port: number;
  url: string;
  received: ReceivedMail[];
  /** Message-IDs in arrival order (also in light mode). */
  messageIds: string[];
  to(address: string): ReceivedMail[];
  waitFor(check: (sink: SmtpSink) => boolean, ms?: number): Promise<void>;
  close(): Promise<void>;
}

/** Undoes quoted-printable soft breaks and escapes (the parts nodemailer writes are UTF-8). */
export function decodeQuotedPrintable(raw: string): string {
  const joined = raw.replace(/=\r?\n/g, '');
  return Buffer.from(
    joined.replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    'latin1',
  ).toString('utf8');
}

export async function startSmtpSink(options: SmtpSinkOptions = {}): Promise<SmtpSink> {
  const received: ReceivedMail[] = [];
  const messageIds: string[] = [];
  const rcptCounts = new Map<string, number>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    size: 10 * 1024 * 1024,
    onRcptTo(address, _session, callback) {
      const count = (rcptCounts.get(address.address) ?? 0) + 1;
      rcptCounts.set(address.address, count);
      const reject = options.rejectRecipient?.(address.address, count);
      if (!reject) return callback();
      callback(Object.assign(new Error(reject.message), { responseCode: reject.code }));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const headers = parseHeaders(raw);
        messageIds.push(headers['message-id'] ?? '');
        if (!options.light) {
          const to = session.envelope.rcptTo.map((r) => r.address);
          received.push({ to, raw, headers, messageId: headers['message-id'] ?? '', body: decodeQuotedPrintable(raw) });
        }
        const held = options.hold?.();
        if (held) void held.then(() => callback());
        else if (options.delayMs) setTimeout(() => callback(), options.delayMs);
        else callback();
      });
    },
  });
  // A client that dies mid-conversation (the crash test kills one) resets its connection: expected here.
  server.on('error', () => undefined);
  await new Promise<void>((ok) => server.listen(options.port ?? 0, '127.0.0.1', ok));
  const port = (server.server.address() as AddressInfo).port;
  const sink: SmtpSink = {
    port,
    url: `smtp://127.0.0.1:${port}`,
    received,
    messageIds,
    to: (address) => received.filter((m) => m.to.includes(address)),
    // As long as a busy machine may need: it is never a bound on how soon.
    waitFor: async (check, ms = 60_000) => {
      const end = Date.now() + ms;
      while (!check(sink)) {
        if (Date.now() > end) throw new Error('timed out waiting for e-mail');
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
  return sink;
}
