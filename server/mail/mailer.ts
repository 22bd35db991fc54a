// What sends an e-mail, as the features that send one see it; transport.ts builds it (SMTP or the outbox).

export interface OutgoingMail {
  /** Display name of the sender (the shop); the address is MAIL_FROM's. */
  fromName: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  /** From messageIdFor(): the same for every attempt at the same message. */
  messageId: string;
  headers?: Record<string, string>;
}

export interface Mailer {
  readonly kind: 'smtp' | 'outbox';
  /** The domain of MAIL_FROM, which Message-IDs use. */
  readonly domain: string;
  /** Resolves once the SMTP server accepted the message (or the file is written); rejects with nodemailer's error. */
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}
