import { describe, expect, it } from 'vitest';
import { formatIso, formatTimestamp, parseSyncTime } from './time.js';

describe('time formats', () => {
  const d = new Date(Date.UTC(2024, 10, 3, 7, 5, 9));
  it('formats the API timestamp and ISO form in UTC', () => {
    expect(formatTimestamp(d)).toBe('2024-11-03 07:05:09');
    expect(formatIso(d)).toBe('2024-11-03T07:05:09+00:00');
  });

  it.each([
    ['2024-11-03 07:05:09', d],
    ['2024-11-03T08:05:09+01:00', d],
    ['2024-11-03T08:05:09 01:00', d],
    ['2024-11-03T02:05:09-05:00', d],
    ['2024-11-03T07:05:09Z', d],
  ])('parses last_synced %s', (input, expected) => {
    expect(parseSyncTime(input)?.getTime()).toBe(expected.getTime());
  });

  it.each(['', 'yesterday', '2024-13-45 99:99:99', '2024-11-03', '2024-02-30T10:00:00+01:00'])(
    'refuses %j',
    (input) => {
      expect(parseSyncTime(input)).toBeUndefined();
    },
  );
});
