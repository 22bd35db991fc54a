import { describe, expect, it } from 'vitest';
import type { Review } from '../reviews/model.js';
import { outstandingMails, queueKey } from './review-queue.js';
import { verdictFor } from './reviews.js';

const now = new Date('2030-05-01T10:00:00Z');
const review = (over: Partial<Review> = {}): Review =>
  ({
    id: 9,
    shopId: 1,
    email: 'a@example.com',
    deleted: false,
    reply: null,
    editToken: null,
    editMailDue: null,
    editMailSent: null,
    confirmToken: null,
    confirmMailSent: null,
    ...over,
  }) as Review;

describe('outstandingMails', () => {
  it('lists each e-mail the review still waits for, the edit e-mail from its due time', () => {
    const later = new Date('2030-05-08T10:00:00Z');
    const r = review({
      confirmToken: 'c',
      editToken: 'e',
      editMailDue: later,
      reply: { text: 'x', date: now, notify: true, revision: 2, notified: null },
    });
    expect(outstandingMails(r, now)).toEqual([
      { reviewId: 9, kind: 'confirm', due: now },
      { reviewId: 9, kind: 'edit', due: later },
      { reviewId: 9, kind: 'reply', due: now },
    ]);
    expect(queueKey(r, 'reply')).toBe('9:reply:2');
  });

  it("queues a reply e-mail within a day of the last one for the day's end", () => {
    const reply = { text: 'x', date: now, notify: true, revision: 2, notified: null };
    const sent = new Date(now.getTime() - 3_600_000);
    expect(outstandingMails(review({ reply, replyMailSent: sent }), now)).toEqual([
      { reviewId: 9, kind: 'reply', due: new Date(sent.getTime() + 86_400_000) },
    ]);
    const dayAgo = new Date(now.getTime() - 86_400_000);
    expect(outstandingMails(review({ reply, replyMailSent: dayAgo }), now)).toEqual([
      { reviewId: 9, kind: 'reply', due: now },
    ]);
  });

  it('lists nothing for a deleted or erased review, or e-mails already sent', () => {
    expect(outstandingMails(review({ confirmToken: 'c', deleted: true }), now)).toEqual([]);
    expect(outstandingMails(review({ confirmToken: 'c', email: '' }), now)).toEqual([]);
    expect(outstandingMails(review({ confirmToken: 'c', confirmMailSent: now }), now)).toEqual([]);
  });
});

describe('verdictFor', () => {
  const entry = (kind: 'edit' | 'confirm' | 'reply', id = `9:${kind}`) => ({ _id: id, reviewId: 9, kind, due: now });

  it('sends what is still due, drops what was sent, replaced or deleted', () => {
    expect(verdictFor(entry('confirm'), review({ confirmToken: 'c' }), now)).toEqual({ send: true });
    expect(verdictFor(entry('confirm'), review({ confirmToken: 'c', confirmMailSent: now }), now)).toEqual({
      send: false,
    });
    expect(verdictFor(entry('confirm'), undefined, now)).toEqual({ send: false });
    const reply = { text: 'x', date: now, notify: true, revision: 3, notified: null };
    expect(verdictFor(entry('reply', '9:reply:2'), review({ reply }), now)).toEqual({ send: false });
    expect(verdictFor(entry('reply', '9:reply:3'), review({ reply }), now)).toEqual({ send: true });
  });

  it('holds a reply e-mail until a day after the last one went out, then sends it', () => {
    const reply = { text: 'x', date: now, notify: true, revision: 3, notified: null };
    const sent = new Date(now.getTime() - 3_600_000);
    const dayEnd = new Date(sent.getTime() + 86_400_000);
    const held = review({ reply, replyMailSent: sent });
    expect(verdictFor(entry('reply', '9:reply:3'), held, now)).toEqual({ send: false, laterAt: dayEnd });
    expect(verdictFor(entry('reply', '9:reply:3'), held, dayEnd)).toEqual({ send: true });
    expect(verdictFor(entry('reply', '9:reply:3'), review({ reply, replyMailSent: sent, email: '' }), now)).toEqual({
      send: false,
    });
  });

  it('looks again later at an edit e-mail planned for later than its entry said', () => {
    const later = new Date('2030-05-02T10:00:00Z');
    expect(verdictFor(entry('edit'), review({ editToken: 'e', editMailDue: later }), now)).toEqual({
      send: false,
      laterAt: later,
    });
  });
});
