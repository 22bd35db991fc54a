// Shared settings and generators for the property/fuzz tests (fast-check). The seed is fixed so that a failure
// reproduces, and every file sets numRuns so that all of them together stay well under a minute on two cores.
import fc from 'fast-check';

const FUZZ_SEED = 0x5eed_2025;

export const fuzzOptions = (numRuns: number) => ({ seed: FUZZ_SEED, numRuns, endOnFailure: true });

/**
 * The time `work` takes, in ms: the fastest of up to three runs, the later ones only when the first is over
 * `bound`. A busy machine slows a run now and then; a superlinear loop is slow every time.
 */
export async function fastestMs(work: () => unknown, bound: number): Promise<number> {
  let fastest = Infinity;
  for (let run = 0; run < 3 && fastest >= bound; run++) {
    const started = performance.now();
    await work();
    fastest = Math.min(fastest, performance.now() - started);
  }
  return fastest;
}

/** Characters outside any parser's syntax that still trip code up: non-ASCII, astral, lone surrogates, controls, BOM. */
const ODD_CHARS = ['é', 'Z', '\u0000', '\n', '\t', '\u2028', '\ufeff', '😀', '\ud800', '\udc00'];

/** Strings mostly of the characters a parser cares about, with odd ones mixed in (cheap to generate, unlike oneof). */
export function textOf(chars: string, maxLength: number, minLength = 0): fc.Arbitrary<string> {
  const special = [...chars];
  return fc.string({ unit: fc.constantFrom(...special, ...special, ...ODD_CHARS), minLength, maxLength });
}

/**
 * A short pattern repeated to `size` characters, plus a tail: repeating the same few characters is how input
 * makes a loop or a regular expression do more than linear work.
 */
export function repeated(chars: string, size: number): fc.Arbitrary<string> {
  return fc
    .tuple(textOf(chars, 12, 1), textOf(chars, 4))
    .map(([pattern, tail]) => pattern.repeat(Math.ceil(size / pattern.length)).slice(0, size) + tail);
}
