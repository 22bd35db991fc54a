import { describe, expect, it } from 'vitest';
import { historyOf } from '../invitations/admin.js';
import { columnsOf, rowInput, stateOf } from './invitations.js';
import { pluginsOf } from './integration.js';
import { ObjectId } from 'mongodb';

const at = new Date('2026-11-20T10:00:00Z');
const later = new Date('2026-11-21T10:00:00Z');

describe('stateOf', () => {
  const outcome = (status: 'sent' | 'failed' | 'suppressed', reason: string | null) => ({
    _id: new ObjectId(),
    status,
    at: later,
    messageId: null,
    reason,
  });
  const none = { due: null, outcome: undefined };

  it('is queued until the first e-mail ended; a waiting retry shows the last answer', () => {
    expect(stateOf(historyOf(at, undefined, none), null)).toEqual({
      state: 'queued',
      reason: null,
      sent_at: null,
      reminder_sent_at: null,
    });
    expect(stateOf(historyOf(at, undefined, none), '421 try later').reason).toBe('421 try later');
  });

  it('follows the first e-mail: sent with its time, failed with the answer, not sent with why', () => {
    expect(stateOf(historyOf(at, outcome('sent', null), none), null)).toMatchObject({
      state: 'sent',
      reason: null,
      sent_at: later.toISOString(),
    });
    expect(stateOf(historyOf(at, outcome('failed', 'permanent: 550'), none), null)).toMatchObject({
      state: 'failed',
      reason: 'permanent: 550',
      sent_at: null,
    });
    expect(stateOf(historyOf(at, outcome('suppressed', 'unsubscribed'), none), null)).toMatchObject({
      state: 'not_sent',
      reason: 'unsubscribed',
    });
  });

  it('gives the reminder’s time once it was sent', () => {
    const reminder = {
      due: null,
      outcome: { _id: new ObjectId(), status: 'sent' as const, at: later, messageId: null, reason: null },
    };
    expect(stateOf(historyOf(at, outcome('sent', null), reminder), null).reminder_sent_at).toBe(later.toISOString());
  });
});

describe('columnsOf and rowInput', () => {
  const header = (fields: string[]) => ({ row: 1, fields });

  it('finds the columns by name in any order and case, and needs email', () => {
    expect(columnsOf(header([' Order ', 'E-mail', 'colour', 'Delay']))).toEqual({ order: 0, email: 1, delay: 3 });
    expect(() => columnsOf(header(['order', 'name']))).toThrow(/email/);
  });

  it('turns a row into Add invitation’s input with the shop’s language as fallback', () => {
    const columns = columnsOf(header(['email', 'order', 'name', 'language', 'delay']));
    expect(rowInput({ row: 2, fields: [' Jan@Example.NL ', 'A-1', 'Jan', '', '4'] }, columns, 'nl')).toMatchObject({
      email: 'Jan@example.nl',
      order: 'A-1',
      customerName: 'Jan',
      language: 'nl',
      delay: 4,
      client: 'dashboard-csv',
      maxPerEmail: null,
    });
    expect(rowInput({ row: 3, fields: ['x@y.example', 'A-2', '', 'deu', ''] }, columns, 'nl')).toMatchObject({
      language: 'de',
      delay: 0,
    });
  });

  it('says what is wrong with a row in the column’s name', () => {
    const columns = columnsOf(header(['email', 'delay']));
    expect(rowInput({ row: 2, fields: ['', '1'] }, columns, 'en')).toEqual({ error: 'email is empty' });
    expect(rowInput({ row: 2, fields: ['nope', '1'] }, columns, 'en')).toEqual({
      error: 'email must be a valid e-mail address.',
    });
    expect(rowInput({ row: 2, fields: ['a@b.example', 'x'] }, columns, 'en')).toEqual({
      error: expect.stringMatching(/^delay must be an integer/),
    });
    expect(rowInput({ row: 2, fields: [], error: 'more than 50 fields' }, columns, 'en')).toEqual({
      error: 'more than 50 fields',
    });
  });
});

describe('pluginsOf', () => {
  it('groups invitations by client and versions, most recently seen first, counting them', () => {
    const call = (client: string | null, version: string | null, created: Date) => ({
      client,
      platform_version: version,
      plugin_version: version,
      created: created.getTime(),
    });
    expect(
      pluginsOf([call('woo', '1', at), call('woo', '1', later), call('woo', '2', at), call(null, null, later)]),
    ).toEqual([
      { client: 'woo', platform_version: '1', plugin_version: '1', last_seen: later.toISOString(), invitations: 2 },
      { client: null, platform_version: null, plugin_version: null, last_seen: later.toISOString(), invitations: 1 },
      { client: 'woo', platform_version: '2', plugin_version: '2', last_seen: at.toISOString(), invitations: 1 },
    ]);
  });
});
