// Where e-mails go: a pooled SMTP connection (SMTP_URL), or, in development without SMTP_URL, `.eml` files under
// DATA_DIR/outbox that GET /dev/outbox lists. Both build the message with nodemailer, DKIM-signed when configured,
// so what lands in the outbox is byte for byte what would have been sent.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTransport } from 'nodemailer';
import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import { domainOf } from './message-id.js';
import type { Mailer, OutgoingMail } from './mailer.js';

// The interface is mailer.ts's (types only: a module that sends names no transport); re-exported from here.
export type { Mailer, OutgoingMail } from './mailer.js';

/** The signed headers: nodemailer's defaults plus List-Unsubscribe-Post, which RFC 8058 wants covered by DKIM. */
const DKIM_HEADERS =
  'From:Sender:Reply-To:Subject:Date:Message-ID:To:Cc:MIME-Version:Content-Type:Content-Transfer-Encoding:' +
  'In-Reply-To:References:List-Id:List-Unsubscribe:List-Unsubscribe-Post';

export const outboxDir = (config: Pick<Config, 'dataDir'>) => join(config.dataDir, 'outbox');

/** The bare address of MAIL_FROM (`Name <a@b>` → `a@b`). */
function addressOf(from: string): string {
  const m = /<([^<>]+)>\s*$/.exec(from);
  return (m ? m[1]! : from).trim();
}

export function createMailer(config: Pick<Config, 'mail' | 'dataDir'>, log: Logger): Mailer {
  const { mail } = config;
  const address = addressOf(mail.from);
  const dkim = mail.dkim && {
    domainName: mail.dkim.domain,
    keySelector: mail.dkim.selector,
    privateKey: readFileSync(mail.dkim.privateKeyFile, 'utf8'),
    headerFieldNames: DKIM_HEADERS,
  };
  const message = (m: OutgoingMail) => ({
    from: { name: m.fromName, address },
    to: m.to,
    subject: m.subject,
    text: m.text,
    html: m.html,
    messageId: m.messageId,
    headers: m.headers,
    // The Date header says when this copy was made; a resent copy keeps its Message-ID, not its date.
    date: new Date(),
  });

  if (mail.smtpUrl) {
    const transport = createTransport({
      url: mail.smtpUrl,
      pool: true,
      maxConnections: mail.connections,
      maxMessages: 500,
      // A server that hangs must not hold the sending job for long: it is a transient failure, tried again later.
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
      dkim,
    });
    transport.on('error', (err: unknown) => log.warn({ err }, 'smtp pool error'));
    return {
      kind: 'smtp',
      domain: domainOf(mail.from),
      send: async (m) => {
        await transport.sendMail(message(m));
      },
      close: () => transport.close(),
    };
  }

  const dir = outboxDir(config);
  const builder = createTransport({ streamTransport: true, buffer: true, newline: 'windows', dkim });
  return {
    kind: 'outbox',
    domain: domainOf(mail.from),
    send: async (m) => {
      const info = await builder.sendMail(message(m));
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, outboxFileName(new Date(), m.messageId)), info.message as Buffer);
    },
    close: () => builder.close(),
  };
}

/** `20240101T120000123Z-invitation.abc@x.eml`: sorts by time; only characters that are safe in any file system. */
export function outboxFileName(at: Date, messageId: string): string {
  const stamp = at.toISOString().replace(/[-:.]/g, '');
  const id = messageId
    .replace(/^<|>$/g, '')
    .replace(/[^A-Za-z0-9.@_-]/g, '_')
    .slice(0, 150);
  return `${stamp}-${id}.eml`;
}
