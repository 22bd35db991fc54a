import { describe, expect, it } from 'vitest';
import { ObjectId } from 'mongodb';
import { reminderDecision, type ReminderFacts } from './reminders.js';
import { historyOf } from './admin.js';

describe('reminderDecision', () => {
  const now = new Date('2026-03-10T12:00:00Z');
  const sent = { status: 'sent' as const, at: new Date('2026-03-05T12:00:00Z') };
  const facts: ReminderFacts = { days: 7, firstMail: sent, linkUsed: false, unsubscribed: false, reviewed: false, now };

  it('waits until reminder_days after the first e-mail actually went out, then sends', () => {
    expect(reminderDecision(facts)).toEqual({ later: new Date('2026-03-12T12:00:00Z') });
    expect(reminderDecision({ ...facts, days: 5 })).toEqual({ send: true });
  });

  it('looks again later while the first e-mail is still queued or retried', () => {
    const decision = reminderDecision({ ...facts, firstMail: null });
    expect('later' in decision && decision.later > now).toBe(true);
  });

  it.each([
    ['reminders off', { days: 0 }, 'reminders_off'],
    ['unsubscribed before the first e-mail', { firstMail: { ...sent, status: 'suppressed' as const } }, 'unsubscribed'],
    ['unsubscribed since', { unsubscribed: true }, 'unsubscribed'],
    ['first e-mail failed', { firstMail: { ...sent, status: 'failed' as const } }, 'first_mail_failed'],
    ['link used', { linkUsed: true }, 'link_used'],
    ['a review for the order', { reviewed: true }, 'reviewed'],
  ])('skips when %s', (_what, change, reason) => {
    expect(reminderDecision({ ...facts, days: 5, ...change })).toEqual({ skip: reason });
  });
});

describe('historyOf', () => {
  const _id = new ObjectId();
  const created = new Date('2026-03-01T10:00:00Z');
  const at = (iso: string) => new Date(iso);

  it('lists queued, the e-mail, then the reminder', () => {
    const history = historyOf(
      created,
      { _id, status: 'sent', at: at('2026-03-01T10:00:05Z'), messageId: '<invitation.x@r.example>', reason: null },
      {
        due: null,
        outcome: {
          _id,
          status: 'sent',
          at: at('2026-03-08T10:01:00Z'),
          messageId: '<invitation.x.reminder@r.example>',
          reason: null,
        },
      },
    );
    expect(history).toEqual([
      { event: 'queued', at: '2026-03-01T10:00:00.000Z' },
      { event: 'sent', at: '2026-03-01T10:00:05.000Z', message_id: '<invitation.x@r.example>' },
      { event: 'reminder_sent', at: '2026-03-08T10:01:00.000Z', message_id: '<invitation.x.reminder@r.example>' },
    ]);
  });

  it('shows a reminder still due, and why an e-mail was not sent', () => {
    const history = historyOf(
      created,
      { _id, status: 'suppressed', at: at('2026-03-01T10:00:05Z'), messageId: null, reason: 'unsubscribed' },
      { due: { _id, due: at('2026-03-08T10:00:00Z'), attempts: 0, lastError: null }, outcome: undefined },
    );
    expect(history.slice(1)).toEqual([
      { event: 'not_sent', at: '2026-03-01T10:00:05.000Z', reason: 'unsubscribed' },
      { event: 'reminder_due', at: '2026-03-08T10:00:00.000Z' },
    ]);
  });
});
