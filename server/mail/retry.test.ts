import { describe, expect, it } from 'vitest';
import { afterFailure, classifySendError, describeSendError, isServerFailure } from './retry.js';
import { DEFAULT_RETRY_SCHEDULE, parseRetrySchedule } from '../retry-schedule.js';

const smtpError = (responseCode: number, code: string, response = `${responseCode} nope`) =>
  Object.assign(new Error('failed'), { responseCode, code, response });

describe('parseRetrySchedule', () => {
  it('reads durations with units', () => {
    expect(parseRetrySchedule('30s, 5m,2h,1d')).toEqual([30_000, 300_000, 7_200_000, 86_400_000]);
  });
  it('refuses anything else', () => {
    for (const bad of ['', '5', '5x', '1m,,2m', '-1m', '0s', 'soon']) expect(parseRetrySchedule(bad)).toBeUndefined();
  });
  it('has a default that keeps trying for hours', () => {
    const total = parseRetrySchedule(DEFAULT_RETRY_SCHEDULE)!.reduce((a, b) => a + b, 0);
    expect(total).toBeGreaterThan(8 * 3_600_000);
  });
});

describe('afterFailure', () => {
  const now = new Date('2024-01-01T00:00:00Z');
  const schedule = [60_000, 600_000];
  it('waits as the schedule says after each failed attempt, then gives up', () => {
    expect(afterFailure(1, 'transient', schedule, now)).toEqual({ retryAt: new Date('2024-01-01T00:01:00Z') });
    expect(afterFailure(2, 'transient', schedule, now)).toEqual({ retryAt: new Date('2024-01-01T00:10:00Z') });
    expect(afterFailure(3, 'transient', schedule, now)).toEqual({ giveUp: 'gave up after 3 attempts' });
  });
  it('gives up at once on a permanent failure', () => {
    expect(afterFailure(1, 'permanent', schedule, now)).toEqual({ giveUp: 'rejected' });
  });
});

describe('classifySendError', () => {
  it('treats a 5xx answer to the recipient or message as permanent', () => {
    expect(classifySendError(smtpError(550, 'EENVELOPE'))).toBe('permanent');
    expect(classifySendError(smtpError(554, 'EMESSAGE'))).toBe('permanent');
  });
  it('treats 4xx, connection problems and login failures as transient', () => {
    expect(classifySendError(smtpError(451, 'EENVELOPE'))).toBe('transient');
    expect(classifySendError(smtpError(535, 'EAUTH'))).toBe('transient');
    expect(classifySendError(Object.assign(new Error('refused'), { code: 'ECONNECTION' }))).toBe('transient');
    expect(classifySendError(undefined)).toBe('transient');
  });
  it('tells server failures from failures of one message', () => {
    expect(isServerFailure(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' }))).toBe(true);
    expect(isServerFailure(smtpError(421, 'EENVELOPE'))).toBe(true);
    expect(isServerFailure(smtpError(535, 'EAUTH'))).toBe(true);
    expect(isServerFailure(smtpError(451, 'EENVELOPE'))).toBe(false);
    expect(isServerFailure(smtpError(550, 'EENVELOPE'))).toBe(false);
  });
  it('describes an error on one short line', () => {
    expect(describeSendError(smtpError(550, 'EENVELOPE', '550 5.1.1\n  no such user'))).toBe(
      'EENVELOPE: 550 5.1.1 no such user',
    );
  });
});
