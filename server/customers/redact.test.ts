import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nameTerms, redactor, REDACTED } from './redact.js';

describe('nameTerms', () => {
  it('keeps each name as given and its parts of three letters or more, but not particles', () => {
    expect(nameTerms(['Marijke van der Berg', 'Li Wu', 'Jean-Pierre  Dupont']).sort()).toEqual(
      [
        'berg',
        'dupont',
        'jean',
        'jean-pierre',
        'jean-pierre dupont',
        'li wu',
        'marijke',
        'marijke van der berg',
        'pierre',
      ].sort(),
    );
  });

  it('ignores names without two letters', () => {
    expect(nameTerms(['', ' ', 'J', '42'])).toEqual([]);
  });
});

describe('redactor', () => {
  const redact = redactor(['Marijke Vandersteen', 'Marijke'], ['Marijke.Vandersteen@example.com']);

  it('removes the whole name as one marker, and its parts, whatever their case', () => {
    expect(redact('Bedankt, Marijke  Vandersteen!')).toBe(`Bedankt, ${REDACTED}!`);
    expect(redact('MARIJKE was blij; mevrouw vandersteen ook.')).toBe(`${REDACTED} was blij; mevrouw ${REDACTED} ook.`);
  });

  it('removes the address in any case, also where it touches other text', () => {
    expect(redact('mail:marijke.vandersteen@EXAMPLE.COM.')).toBe(`mail:${REDACTED}.`);
  });

  it('matches whole words only', () => {
    expect(redact('Marijkes fiets, Vandersteenweg 3')).toBe('Marijkes fiets, Vandersteenweg 3');
  });

  it('keeps particles and short parts, and texts without the name unchanged', () => {
    const dutch = redactor(['Jo van Dam'], []);
    expect(dutch('Een fiets van Jo van Dam, van harte')).toBe(`Een fiets van ${REDACTED}, van harte`);
    expect(dutch('Dam open, van alles')).toBe(`${REDACTED} open, van alles`);
    const text = 'Cafe\u0301 prima';
    expect(redactor(['Anna'], ['a@example.com'])(text)).toBe(text);
  });

  it('treats the names and addresses as text, not as patterns', () => {
    expect(redactor(['A.* (x)'], [])('A.* (x) and Abc')).toBe(`${REDACTED} and Abc`);
    expect(redactor(['Jean-Pierre Dupont'], ['j-p+d/x@a-b.example'])('Jean-Pierre: j-p+d/x@A-B.example, Pierre')).toBe(
      `${REDACTED}: ${REDACTED}, ${REDACTED}`,
    );
    expect(redactor(["Seán O'Brien"], [])("O'Brien en Brien, SEÁN")).toBe(`${REDACTED} en ${REDACTED}, ${REDACTED}`);
  });

  it('matches names in any Unicode normal form', () => {
    expect(redactor(['Zoe\u0308 Müller'], [])('Danke Zoë Mu\u0308ller')).toBe(`Danke ${REDACTED}`);
  });
});

describe('redactor, for any names and addresses', () => {
  it('never throws, and leaves no occurrence of the address in any case', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: 'grapheme' }), { maxLength: 3 }),
        fc.emailAddress(),
        fc.array(fc.oneof(fc.string(), fc.constant('ADDRESS')), { maxLength: 8 }),
        fc.boolean(),
        (names, address, pieces, upper) => {
          const text = pieces.map((p) => (p === 'ADDRESS' ? (upper ? address.toUpperCase() : address) : p)).join(' ');
          const out = redactor(names, [address])(text);
          expect(out.toLowerCase()).not.toContain(address.toLowerCase());
        },
      ),
    );
  });

  it('leaves no whole-word occurrence of any of its terms, in any case', () => {
    const word = fc.stringMatching(/^[A-Za-zÀ-ÖØ-öø-ÿ]{1,10}$/);
    const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    const alone = (term: string) =>
      new RegExp(`(?<![\\p{L}\\p{M}\\p{N}])${escapeRegExp(term)}(?![\\p{L}\\p{M}\\p{N}])`, 'iu');
    fc.assert(
      fc.property(
        fc.array(word, { minLength: 1, maxLength: 3 }),
        fc.array(fc.string(), { maxLength: 4 }),
        (parts, noise) => {
          const name = parts.join(' ');
          const out = redactor(
            [name],
            [],
          )([...noise, name, ...parts.map((p) => p.toUpperCase()), ...noise].join(' . '));
          for (const term of nameTerms([name])) expect(out).not.toMatch(alone(term));
        },
      ),
    );
  });
});
