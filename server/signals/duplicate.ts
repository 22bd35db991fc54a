// `duplicate_text`, the pure part: a comment's normal form, its word 3-shingles, their MinHash signature and the
// LSH bands that find candidates without comparing against every stored review, and the exact Jaccard that decides.
// Parameters and why: docs/decisions/signals.md.

/** A comment shorter than this (in words, once normalised) raises nothing: "Great service, fast delivery" is common. */
const MIN_WORDS = 12;
/** Word 3-shingle Jaccard at or above this is a close match. */
export const SIMILARITY = 0.8;
/** Bands × rows = the signature's length. With 16 bands of 4 rows a pair at 0.8 shares a band 99.98 % of the time. */
export const BANDS = 16;
const ROWS = 4;
const SHINGLE = 3;

/**
 * The comment as compared: Unicode-normalised (NFKC), lower case, punctuation and symbols dropped, runs of white
 * space as one space. Letters keep their accents ("très" is not "tres").
 */
export function normalise(comment: string): string {
  return comment
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\p{P}\p{S}]+/gu, ' ')
    .replace(/\s+/gu, ' ')
    .trim();
}

/** The words of a normalised comment; a comment of fewer than MIN_WORDS is too short to compare: null. */
export function wordsOf(comment: string | null | undefined): string[] | null {
  const text = normalise(comment ?? '');
  const words = text ? text.split(' ') : [];
  return words.length >= MIN_WORDS ? words : null;
}

/** The set of word 3-shingles ("a b c"). */
export function shingles(words: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (let i = 0; i + SHINGLE <= words.length; i++) out.add(words.slice(i, i + SHINGLE).join(' '));
  return out;
}

/** Exact Jaccard of two shingle sets: |A ∩ B| / |A ∪ B|. */
export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  let common = 0;
  for (const s of a) if (b.has(s)) common++;
  return common / (a.size + b.size - common);
}

/** FNV-1a over the UTF-16 code units: a shingle's 32-bit hash. */
function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** The murmur3 finaliser: mixes 32 bits well; with a different seed per row, a family of hash functions. */
function mix(x: number): number {
  let h = x;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Fixed seeds, so that signatures stored by one version are comparable with the next. */
const SEEDS = Uint32Array.from({ length: BANDS * ROWS }, (_, i) => mix(0x9e3779b9 + Math.imul(i + 1, 0x6d2b79f5)));

/** The MinHash signature: for each of BANDS × ROWS hash functions, the least hash over the shingles. */
export function minhash(set: ReadonlySet<string>): Uint32Array {
  const signature = new Uint32Array(SEEDS.length).fill(0xffffffff);
  for (const s of set) {
    const h = fnv1a(s);
    for (let i = 0; i < SEEDS.length; i++) {
      const v = mix(h ^ SEEDS[i]!);
      if (v < signature[i]!) signature[i] = v;
    }
  }
  return signature;
}

/**
 * The signature's LSH bands: each band's ROWS values and its number hashed to one non-zero 32-bit key. Two
 * reviews are candidates when they share a key (the band number is in the key, so keys of different bands differ).
 */
export function bands(signature: Uint32Array): Uint32Array {
  const keys = new Uint32Array(BANDS);
  for (let b = 0; b < BANDS; b++) {
    let h = mix(0x1b873593 ^ b);
    for (let r = 0; r < ROWS; r++) h = mix(h ^ signature[b * ROWS + r]!);
    keys[b] = h || 1;
  }
  return keys;
}

/** The bands of a comment, or null when it is too short to compare. */
export function bandsOf(comment: string | null | undefined): Uint32Array | null {
  const words = wordsOf(comment);
  return words ? bands(minhash(shingles(words))) : null;
}

/** The exact similarity of two comments (word 3-shingle Jaccard of their normal forms); 0 when either is too short. */
export function similarity(a: string | null | undefined, b: string | null | undefined): number {
  const wa = wordsOf(a);
  const wb = wordsOf(b);
  return wa && wb ? jaccard(shingles(wa), shingles(wb)) : 0;
}
