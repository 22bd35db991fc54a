// Taking an erased customer's name and address out of the free texts of their reviews (their comment, their words
// about each product, and the shop's reply, which often greets them by name). Pure rules, no I/O.
//
// Names are matched as whole words, whatever their case: the name as given, and each part of it of at least three
// letters, so "Marijke" and "Vandersteen" go as well as "Marijke Vandersteen". Shorter parts ("Li", "de") and
// name particles ("van", "der", …) are common words of the review languages: removing them would garble the text
// without identifying anyone. The address goes wherever it appears, whatever its case.

/** What stands where a name or address was: the ellipsis in brackets reads the same in every review language. */
export const REDACTED = '[…]';

const MIN_PART_LETTERS = 3;

/** Parts of names that are ordinary words in the review languages (nl, en, de, fr, es, it, hr). */
const PARTICLES = new Set([
  'van',
  'von',
  'der',
  'den',
  'dem',
  'des',
  'del',
  'della',
  'dei',
  'degli',
  'das',
  'dos',
  'die',
  'het',
  'ten',
  'ter',
  'zum',
  'zur',
  'und',
  'and',
  'les',
  'los',
  'las',
  'bin',
  'ibn',
  'san',
  'santa',
]);

const letterCount = (s: string) => (s.match(/\p{L}/gu) ?? []).length;
// Only the syntax characters: in a Unicode pattern any other escaped character (`\-`) is an error.
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** The words to remove for these names, lower-case: each name as given, and its parts (see above). */
export function nameTerms(names: readonly string[]): string[] {
  const terms = new Set<string>();
  for (const given of names) {
    const name = given.normalize('NFC').trim().replace(/\s+/g, ' ').toLowerCase();
    if (letterCount(name) < 2) continue;
    terms.add(name);
    // Words of the name ("jean-pierre", "o'brien"), and the parts of those ("jean", "pierre", "brien").
    const words = name.split(/[^\p{L}\p{M}'’-]+/u);
    for (const part of [...words, ...words.flatMap((w) => w.split(/['’-]+/u))]) {
      if (letterCount(part) >= MIN_PART_LETTERS && !PARTICLES.has(part)) terms.add(part);
    }
  }
  return [...terms];
}

export type Redact = (text: string) => string;

/** A function that replaces the addresses and names in a text with REDACTED; a text without them comes back as is. */
export function redactor(names: readonly string[], addresses: readonly string[]): Redact {
  const byLength = (a: string, b: string) => b.length - a.length;
  const wanted = [...new Set(addresses.map((a) => a.trim().normalize('NFC')).filter(Boolean))].sort(byLength);
  const address = wanted.length ? new RegExp(wanted.map(escapeRegExp).join('|'), 'giu') : undefined;
  // Longest first, so a whole name is one marker rather than one per part; spaces in a name match any blank.
  const terms = nameTerms(names).sort(byLength);
  const alternatives = terms.map((t) => t.split(' ').map(escapeRegExp).join('\\s+')).join('|');
  const word = terms.length
    ? new RegExp(`(?<![\\p{L}\\p{M}\\p{N}])(?:${alternatives})(?![\\p{L}\\p{M}\\p{N}])`, 'giu')
    : undefined;
  return (text) => {
    let out = text.normalize('NFC');
    if (address) out = out.replace(address, REDACTED);
    if (word) out = out.replace(word, REDACTED);
    return out === text.normalize('NFC') ? text : out;
  };
}
