// Property tests of the body parsers with random and adversarial input: they never throw anything but a 400/413
// HttpError, what they return is well formed, and their time stays linear.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BODY_CAPS,
  FormFields,
  jsonOverCaps,
  parseFormEncoded,
  parseJsonObject,
  readFields,
  type Fields,
} from './body.js';
import { HttpError } from './errors.js';
import { multipartBody, requestContext } from '../../test/request-context.js';
import { fastestMs, fuzzOptions, repeated, textOf } from '../../test/fuzz.js';

const LIMIT = 4 * 1024 * 1024;
/**
 * The bound for 1 MB of repeated pattern: linear parsing takes tens of ms, a quadratic loop minutes; the margin is
 * for a machine busy with other work.
 */
const LINEAR_MS = 1000;
const FORM_CHARS = 'ab0[]&=%+_ ';
const JSON_CHARS = '{}[]",:\\0 tfnu';

/** The outcome of a parse: the fields, or the status of the HttpError it threw (anything else fails the test). */
async function outcome(parse: () => Fields | Promise<Fields>): Promise<Fields | number> {
  try {
    return await parse();
  } catch (err) {
    if (err instanceof HttpError && (err.status === 400 || err.status === 413)) return err.status;
    throw err;
  }
}

/** outcome() for a parser that does not read a stream. */
function settled(parse: () => Fields): Fields | number {
  try {
    return parse();
  } catch (err) {
    if (err instanceof HttpError && (err.status === 400 || err.status === 413)) return err.status;
    throw err;
  }
}

/** Form fields are prototype-free objects all the way down, with strings at the leaves. */
function expectFormTree(value: unknown, depth = 1): void {
  if (typeof value === 'string') return;
  expect(typeof value).toBe('object');
  expect(Object.getPrototypeOf(value)).toBeNull();
  expect(depth).toBeLessThanOrEqual(BODY_CAPS.depth);
  for (const child of Object.values(value as Fields)) expectFormTree(child, depth + 1);
}

/** Plain data for comparing (null prototypes and key order do not matter). */
const plain = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;

describe('urlencoded and multipart forms', () => {
  it('any text gives prototype-free string trees, or 413', async () => {
    await fc.assert(
      fc.asyncProperty(textOf(FORM_CHARS, 300), async (text) => {
        const result = await outcome(() => parseFormEncoded(text));
        if (typeof result === 'number') expect(result).toBe(413);
        else expectFormTree(result);
      }),
      fuzzOptions(1000),
    );
  });

  /**
   * The WHATWG urlencoded parser as the standard writes it: split the bytes on `&`, then on the first `=`, `+` to
   * space, percent-decode, UTF-8 decode keeping a BOM. (Node's URLSearchParams mangles characters outside the
   * Basic Multilingual Plane when a component also holds an invalid escape such as `%zz`.)
   */
  const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });
  const standardPairs = (text: string): [string, string][] => {
    const decode = (bytes: number[]) => {
      const out: number[] = [];
      for (let i = 0; i < bytes.length; i++) {
        const hex = String.fromCharCode(bytes[i + 1] ?? 0, bytes[i + 2] ?? 0);
        if (bytes[i] === 0x25 && /^[0-9a-f]{2}$/i.test(hex)) {
          out.push(parseInt(hex, 16));
          i += 2;
        } else out.push(bytes[i] === 0x2b ? 0x20 : bytes[i]!);
      }
      return utf8.decode(new Uint8Array(out));
    };
    const sequences: number[][] = [[]];
    for (const byte of new TextEncoder().encode(text)) {
      if (byte === 0x26) sequences.push([]);
      else sequences.at(-1)!.push(byte);
    }
    return sequences
      .filter((bytes) => bytes.length > 0)
      .map((bytes) => {
        const eq = bytes.indexOf(0x3d);
        return eq === -1 ? [decode(bytes), ''] : [decode(bytes.slice(0, eq)), decode(bytes.slice(eq + 1))];
      });
  };
  const parsedFrom = (pairs: Iterable<[string, string]>) => {
    const form = new FormFields();
    for (const [k, v] of pairs) form.add(k, v);
    return form.fields;
  };

  it('decodes names and values as the URL standard does (and as URLSearchParams does for ASCII)', () => {
    const escapes = fc.constantFrom(
      '%41',
      '%c3%a9',
      '%C3',
      '%A9',
      '%zz',
      '%4',
      '%',
      '%00',
      '%2B',
      '%26',
      '%3D',
      '%5B',
      '%5D',
      '%EF%BB%BF',
      '%F0%9F%98',
    );
    const piece = fc.oneof(textOf(FORM_CHARS, 6), escapes, fc.string({ unit: 'binary', maxLength: 4 }));
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 30 }).map((p) => p.join('')),
        (text) => {
          const parsed = settled(() => parseFormEncoded(text));
          assert.deepStrictEqual(
            parsed,
            settled(() => parsedFrom(standardPairs(text))),
          );
          if (/^[\x00-\x7f]*$/.test(text))
            assert.deepStrictEqual(
              parsed,
              settled(() => parsedFrom(new URLSearchParams(text))),
            );
        },
      ),
      fuzzOptions(300),
    );
  });

  // Nested data as PHP's http_build_query writes it: `a[b][0]=x`.
  const key = fc.stringMatching(/^[a-z0-9_]{1,6}$/);
  const tree = fc.letrec<{ node: unknown }>((tie) => ({
    node: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.string({ maxLength: 8 }),
      fc.dictionary(key, tie('node'), { minKeys: 1, maxKeys: 4 }),
    ),
  })).node;
  const form = fc.dictionary(key, tree, { minKeys: 1, maxKeys: 5 });
  const pairs = (value: unknown, path: string[], out: [string, string][]) => {
    if (typeof value === 'string')
      out.push([
        path[0] +
          path
            .slice(1)
            .map((k) => `[${k}]`)
            .join(''),
        value,
      ]);
    else for (const [k, v] of Object.entries(value as Fields)) pairs(v, [...path, k], out);
    return out;
  };

  it('reads nested data back as http_build_query wrote it, the same in both encodings', async () => {
    await fc.assert(
      fc.asyncProperty(form, async (data) => {
        const list = pairs(data, [], []);
        const encoded = list.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&');
        const fromForm = await outcome(() => parseFormEncoded(encoded));
        const { body, type } = multipartBody(list);
        const fromMultipart = await outcome(() => readFields(requestContext(body, type), LIMIT));
        // Random trees can nest past the cap; then both refuse.
        if (typeof fromForm === 'number') expect(fromMultipart).toBe(fromForm);
        else {
          expect(plain(fromForm)).toEqual(plain(data));
          expect(plain(fromMultipart)).toEqual(plain(data));
        }
      }),
      fuzzOptions(200),
    );
  });

  it('a short pattern repeated to 1 MB is parsed (or refused) in linear time', async () => {
    await fc.assert(
      fc.asyncProperty(repeated(FORM_CHARS, 1024 * 1024), async (text) => {
        let result: Fields | number = 0;
        const ms = await fastestMs(async () => (result = await outcome(() => parseFormEncoded(text))), LINEAR_MS);
        expect(ms, JSON.stringify(text.slice(0, 40))).toBeLessThan(LINEAR_MS);
        if (typeof result !== 'number') expectFormTree(result);
      }),
      fuzzOptions(12),
    );
  });

  it('a large form read from a request, in slices, gives what one pass gives', async () => {
    // Fewer `&` than other characters, so that most bodies stay within the fields cap.
    const text = repeated('ab0[]=%+_ ab0%', 700 * 1024).chain((body) =>
      fc.array(fc.nat(body.length), { maxLength: 60 }).map((cuts) => {
        const chars = [...body];
        for (const at of cuts) chars[at] = '&';
        return chars.join('');
      }),
    );
    await fc.assert(
      fc.asyncProperty(text, async (body) => {
        const sliced = await outcome(() =>
          readFields(requestContext(body, 'application/x-www-form-urlencoded'), LIMIT),
        );
        expect(sliced).toEqual(settled(() => parseFormEncoded(body)));
      }),
      fuzzOptions(12),
    );
  });

  it('random multipart bodies give fields, 400 or 413, never anything else', async () => {
    const header = fc.oneof(
      fc.constant('Content-Disposition: form-data; name="a[]"'),
      fc.constant('Content-Disposition: form-data; name="f"; filename="x.txt"'),
      fc.constant('Content-Type: application/octet-stream'),
      textOf('Content-Disposition: form-data; name="[]\r\n;', 60),
    );
    const part = fc.tuple(fc.array(header, { maxLength: 3 }), textOf('ab\r\n--xq', 40));
    const body = fc.tuple(fc.array(part, { maxLength: 6 }), fc.boolean(), textOf('-\r\nxq', 8));
    await fc.assert(
      fc.asyncProperty(body, async ([parts, closed, junk]) => {
        const text =
          parts.map(([headers, value]) => `--xq\r\n${headers.join('\r\n')}\r\n\r\n${value}\r\n`).join('') +
          (closed ? '--xq--\r\n' : junk);
        const result = await outcome(() => readFields(requestContext(text, 'multipart/form-data; boundary=xq'), LIMIT));
        if (typeof result !== 'number') expectFormTree(result);
      }),
      fuzzOptions(300),
    );
  });
});

describe('JSON', () => {
  /** Levels of objects and arrays, and values counted as the scanner does (each container: its entries, at least one). */
  const shape = (value: unknown): { depth: number; fields: number } => {
    if (typeof value !== 'object' || value === null) return { depth: 0, fields: 0 };
    const children = Object.values(value).map(shape);
    return {
      depth: 1 + Math.max(0, ...children.map((c) => c.depth)),
      fields: Math.max(1, children.length) + children.reduce((sum, c) => sum + c.fields, 0),
    };
  };
  // Deep chains and wide lists around the caps, inside random JSON.
  const nested = (levels: number) =>
    fc
      .jsonValue({ maxDepth: 2 })
      .map((inner) => JSON.parse(`${'['.repeat(levels)}${JSON.stringify(inner)}${']'.repeat(levels)}`));
  const wide = (n: number) => fc.constant(Array.from({ length: n }, (_, i) => i));
  const value = fc.oneof(
    fc.jsonValue(),
    fc.integer({ min: BODY_CAPS.depth - 3, max: BODY_CAPS.depth + 2 }).chain(nested),
    fc.integer({ min: BODY_CAPS.fields - 3, max: BODY_CAPS.fields + 2 }).chain(wide),
  );

  it('the cap scan agrees with the depth and size of the parsed value, whatever the formatting', () => {
    fc.assert(
      fc.property(value, fc.constantFrom(undefined, 1, '\t'), (v, indent) => {
        const { depth, fields } = shape(v);
        const over = depth > BODY_CAPS.depth ? 'depth' : fields > BODY_CAPS.fields ? 'fields' : undefined;
        const found = jsonOverCaps(JSON.stringify(v, null, indent));
        expect(found !== undefined).toBe(over !== undefined);
        if (depth <= BODY_CAPS.depth || fields <= BODY_CAPS.fields) expect(found).toBe(over);
      }),
      fuzzOptions(600),
    );
  });

  it('objects within the caps read back as they were', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 6 })), (object) => {
        expect(parseJsonObject(JSON.stringify(object))).toEqual(plain(object));
      }),
      fuzzOptions(300),
    );
  });

  it('any text gives an object, 400 or 413', async () => {
    await fc.assert(
      fc.asyncProperty(textOf(JSON_CHARS, 300), async (text) => {
        const result = await outcome(() => parseJsonObject(text));
        if (typeof result !== 'number') expect(typeof result).toBe('object');
      }),
      fuzzOptions(1000),
    );
  });

  it('a short pattern repeated to 1 MB is parsed (or refused) in linear time', async () => {
    await fc.assert(
      fc.asyncProperty(repeated(JSON_CHARS, 1024 * 1024), async (text) => {
        const ms = await fastestMs(() => outcome(() => parseJsonObject(`{"a":${text}}`)), LINEAR_MS);
        expect(ms, JSON.stringify(text.slice(0, 40))).toBeLessThan(LINEAR_MS);
      }),
      fuzzOptions(12),
    );
  });
});
