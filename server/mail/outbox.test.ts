import { describe, expect, it } from 'vitest';
import { decodeWords, OUTBOX_FILE, parseHeaders } from './outbox.js';
import { outboxFileName } from './transport.js';

describe('parseHeaders', () => {
  it('reads folded and encoded header fields up to the blank line', () => {
    const raw =
      'To: jane@example.com\r\nSubject: =?UTF-8?Q?Wie_war_Ihre_Bestellung_bei_?=\r\n =?UTF-8?Q?M=C3=BCller?=\r\n' +
      'Message-ID: <invitation.1@x.example>\r\n\r\nSubject: not a header';
    expect(parseHeaders(raw)).toEqual({
      to: 'jane@example.com',
      subject: 'Wie war Ihre Bestellung bei Müller',
      'message-id': '<invitation.1@x.example>',
    });
  });

  it('decodes base64 words and leaves unknown charsets alone', () => {
    expect(decodeWords(`=?UTF-8?B?${Buffer.from('Hrvatski ščž').toString('base64')}?=`)).toBe('Hrvatski ščž');
    expect(decodeWords('=?KOI8-R?Q?abc?=')).toBe('=?KOI8-R?Q?abc?=');
  });
});

describe('outboxFileName', () => {
  it('makes names the outbox will serve, and nothing that climbs out of the folder', () => {
    const name = outboxFileName(new Date('2024-05-01T10:00:00.123Z'), '<invitation.abc@x.example>');
    expect(name).toBe('20240501T100000123Z-invitation.abc@x.example.eml');
    expect(OUTBOX_FILE.test(name)).toBe(true);
    expect(OUTBOX_FILE.test('../../etc/passwd')).toBe(false);
    expect(outboxFileName(new Date(0), '<../../x/y>')).not.toContain('/');
  });
});
