import { describe, expect, it } from 'vitest';
import { normalizeLanguage } from './languages.js';

describe('normalizeLanguage', () => {
  it.each([
    ['nl', 'nl'],
    ['nld', 'nl'],
    ['nl_nl', 'nl'],
    ['nl-NL', 'nl'],
    ['en_gb', 'en'],
    ['de-DE', 'de'],
    ['be', 'nl'],
    ['HRV', 'hr'],
    [' fr ', 'fr'],
    ['at', 'de'],
  ])('maps %j to %s', (input, expected) => {
    expect(normalizeLanguage(input)).toBe(expected);
  });

  it.each(['cus', '', 'xx', 'klingon'])('has no language for %j', (input) => {
    expect(normalizeLanguage(input)).toBeUndefined();
  });
});
