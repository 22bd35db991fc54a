import { describe, expect, it } from 'vitest';
import { decisionSchema, readReportForm, reportProblems, REPORT_LIMITS } from './schema.js';

describe('the report form', () => {
  it('reads a ground from the fixed list, trimmed details and a normalised address', () => {
    expect(readReportForm({ ground: 'spam', text: '  a\r\nb  ', email: ' Jan@EXAMPLE.com ' })).toEqual({
      ground: 'spam',
      text: 'a\nb',
      email: 'Jan@example.com',
    });
  });

  it('treats anything but a single string of the list as no ground (arrays, objects, operators, unknown words)', () => {
    for (const ground of [['spam'], { $ne: 'x' }, 'SPAM', 'toString', '', undefined]) {
      expect(readReportForm({ ground }).ground).toBeNull();
    }
  });

  it('names each problem: no ground, details too long, an address that is not one', () => {
    expect(reportProblems({ ground: null, text: 'x'.repeat(REPORT_LIMITS.text + 1), email: 'nope' })).toEqual([
      'ground',
      'text',
      'email',
    ]);
    expect(reportProblems({ ground: 'other', text: 'x'.repeat(REPORT_LIMITS.text), email: '' })).toEqual([]);
  });
});

describe('a decision', () => {
  it('needs a ground to remove or redact, and a passage to redact', () => {
    expect(decisionSchema.safeParse({ action: 'keep' }).success).toBe(true);
    expect(decisionSchema.safeParse({ action: 'remove' }).success).toBe(false);
    expect(decisionSchema.safeParse({ action: 'remove', ground: 'spam', statement: 'Advertising.' }).success).toBe(
      true,
    );
    expect(decisionSchema.safeParse({ action: 'redact', ground: 'personal_data', statement: 'x' }).success).toBe(false);
    expect(
      decisionSchema.parse({
        action: 'redact',
        ground: 'personal_data',
        passage: '06 12',
        statement: 'A phone number.',
      }),
    ).toMatchObject({
      replacement: '[…]',
      note: '',
    });
    expect(decisionSchema.safeParse({ action: 'remove', ground: 'spam', by: 'me' }).success).toBe(false);
  });

  it('needs a statement of reasons to remove or redact (issue 21), not to keep', () => {
    expect(decisionSchema.safeParse({ action: 'remove', ground: 'spam' }).success).toBe(false);
    expect(decisionSchema.safeParse({ action: 'remove', ground: 'spam', statement: '   ' }).success).toBe(false);
    expect(decisionSchema.safeParse({ action: 'redact', ground: 'spam', passage: 'x' }).success).toBe(false);
    expect(decisionSchema.safeParse({ action: 'keep', statement: 'x' }).success).toBe(false);
    expect(decisionSchema.safeParse({ action: 'uphold' }).success).toBe(true);
    expect(decisionSchema.safeParse({ action: 'reverse' }).success).toBe(true);
  });
});
