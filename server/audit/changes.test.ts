import { describe, expect, it } from 'vitest';
import { changesOf } from './changes.js';

describe('changesOf', () => {
  it('gives values before → after, texts only as changed with their lengths, and leaves out what did not change', () => {
    const before = { rating: 2, valid: true, comment: 'Goed', name: 'Jan', quarantine: false };
    const after = { rating: 4, valid: true, comment: null, name: 'Jan Jansen', quarantine: true };
    expect(changesOf(before, after, ['rating', 'valid', 'comment', 'name', 'quarantine'], ['comment', 'name'])).toEqual(
      {
        rating: { from: 2, to: 4 },
        comment: { changed: true, length_before: 4, length_after: 0 },
        name: { changed: true, length_before: 3, length_after: 10 },
        quarantine: { from: false, to: true },
      },
    );
  });

  it('tells objects key by key, texts below a text field as texts, and a value that appears as from null', () => {
    const before = { ratings: { a: 1, b: 2 }, address: { city: 'Delft' }, sidebar: {} };
    const after = { ratings: { a: 1, b: 3 }, address: { city: 'Delft', street: 'Markt' }, sidebar: { theme: 'light' } };
    expect(changesOf(before, after, ['ratings', 'address', 'sidebar'], ['address'])).toEqual({
      ratings: { b: { from: 2, to: 3 } },
      address: { street: { changed: true, length_before: 0, length_after: 5 } },
      sidebar: { theme: { from: null, to: 'light' } },
    });
  });

  it('gives nothing for equal values, whatever the order of keys or a key set to undefined', () => {
    expect(changesOf({ s: { a: 1, b: 2 } }, { s: { b: 2, a: 1, c: undefined } }, ['s'], [])).toEqual({});
  });
});
