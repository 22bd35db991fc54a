import { describe, expect, it } from 'vitest';
import { nextReply, replyRequestSchema } from './reply.js';

describe('nextReply', () => {
  const now = new Date('2025-01-02T03:04:05Z');

  it('starts at revision 1 with the notification pending when wanted', () => {
    expect(nextReply(null, { review_id: 1, reply: 'Thanks', notify: true }, now)).toEqual({
      text: 'Thanks',
      date: now,
      notify: true,
      revision: 1,
      notified: null,
    });
  });

  it('replaces an earlier reply with the next revision, notify defaulting to false', () => {
    const earlier = { text: 'Old', date: new Date(0), notify: true, revision: 3, notified: new Date(1) };
    expect(nextReply(earlier, { review_id: 1, reply: 'New' }, now)).toEqual({
      text: 'New',
      date: now,
      notify: false,
      revision: 4,
      notified: null,
    });
  });

  it('takes over a notification still waiting, whatever the request says, but not one already sent', () => {
    const waiting = { text: 'Old', date: new Date(0), notify: true, revision: 3, notified: null };
    expect(nextReply(waiting, { review_id: 1, reply: 'New' }, now)).toMatchObject({
      notify: true,
      notified: null,
      revision: 4,
    });
    expect(nextReply(waiting, { review_id: 1, reply: 'New', notify: false }, now)).toMatchObject({ notify: true });
    const sent = { ...waiting, notified: new Date(1) };
    expect(nextReply(sent, { review_id: 1, reply: 'New', notify: false }, now)).toMatchObject({ notify: false });
  });
});

describe('replyRequestSchema', () => {
  it('trims the reply and ignores unknown fields', () => {
    expect(replyRequestSchema.parse({ review_id: 7, reply: '  hi  ', extra: 1 })).toEqual({
      review_id: 7,
      reply: 'hi',
    });
  });

  it('accepts 12.0 (the same JSON number as 12) but not "12"', () => {
    expect(replyRequestSchema.safeParse({ review_id: 12.0, reply: 'x' }).success).toBe(true);
    expect(replyRequestSchema.safeParse({ review_id: '12', reply: 'x' }).success).toBe(false);
  });
});
