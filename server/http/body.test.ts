import { describe, expect, it } from 'vitest';
import { asList, BODY_CAPS, ParseWork, parseFormEncoded, readFields, SLICE_BYTES } from './body.js';
import { HttpError } from './errors.js';
import { multipartBody, requestContext } from '../../test/request-context.js';
import { worstBodies } from '../../test/worst-bodies.js';

describe('parseFormEncoded (PHP-style forms)', () => {
  it('reads plain fields, keeping leading zeros and empty strings', () => {
    expect({ ...parseFormEncoded('email=a%40b.nl&order=000123&delay=') }).toEqual({
      email: 'a@b.nl',
      order: '000123',
      delay: '',
    });
  });

  it('turns bracket arrays into lists', () => {
    const fields = parseFormEncoded('phone_numbers[0]=0612&phone_numbers[1]=0201&tags[]=a&tags[]=b');
    expect(asList(fields.phone_numbers)).toEqual(['0612', '0201']);
    expect(asList(fields.tags)).toEqual(['a', 'b']);
  });

  it('nests objects', () => {
    const fields = parseFormEncoded('a[b][c]=1&a[b][d]=2');
    expect(JSON.parse(JSON.stringify(fields))).toEqual({ a: { b: { c: '1', d: '2' } } });
  });

  it('keeps __proto__ as inert data', () => {
    const fields = parseFormEncoded('__proto__[polluted]=yes&constructor[prototype][x]=1');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(fields)).toBeNull();
  });
});

describe('caps on fields and nesting (linear whatever the body)', () => {
  const repeat = (n: number, piece: (i: number) => string, sep = '&') =>
    Array.from({ length: n }, (_, i) => piece(i)).join(sep);
  const statusOf = async (work: () => unknown): Promise<number | 'ok'> => {
    try {
      await work();
      return 'ok';
    } catch (err) {
      if (err instanceof HttpError) return err.status;
      throw err;
    }
  };
  const form = (text: string) => readFields(requestContext(text, 'application/x-www-form-urlencoded'), BODY_LIMIT);
  const json = (text: string) => readFields(requestContext(text, 'application/json'), BODY_LIMIT);
  const multipart = (fields: [string, string][]) => {
    const { body, type } = multipartBody(fields);
    return readFields(requestContext(body, type), BODY_LIMIT);
  };
  const BODY_LIMIT = 4 * 1024 * 1024;

  // How the time grows with their number (10,000 took seconds when each counted the keys): bench/bodies.ts.
  it('appends `[]` fields in order, in every encoding', async () => {
    const n = BODY_CAPS.fields - 1; // and the list holding them
    const list = asList(parseFormEncoded(repeat(n, (i) => `a[]=${i}`)).a)!;
    expect(list).toHaveLength(n);
    expect(list.at(-1)).toBe(String(n - 1));
    const parts = asList(
      (await multipart(Array.from({ length: n }, (_, i): [string, string] => ['a[]', String(i)]))).a,
    )!;
    expect(parts).toEqual(list);
  });

  it('numbers `[]` after the highest index given, as PHP does, never overwriting one', () => {
    expect(JSON.parse(JSON.stringify(parseFormEncoded('a[1]=x&a[]=y&a[]=z')))).toEqual({
      a: { 1: 'x', 2: 'y', 3: 'z' },
    });
    expect(JSON.parse(JSON.stringify(parseFormEncoded('a[x]=1&a[]=2&b[][c]=3&b[][c]=4')))).toEqual({
      a: { x: '1', 0: '2' },
      b: { 0: { c: '3' }, 1: { c: '4' } },
    });
  });

  it('keeps keys that are not of the form name[a][b] as they are', () => {
    const fields = parseFormEncoded('[a]=1&a]b[c]=2&a[b]c=3&a[b[c]=4&a[=5&=6');
    expect(Object.keys(fields)).toEqual(['[a]', 'a]b[c]', 'a[b]c', 'a[b[c]', 'a[', '']);
  });

  it(`refuses more than ${BODY_CAPS.fields} fields with 413, in every encoding`, async () => {
    const n = BODY_CAPS.fields;
    expect(await statusOf(() => form(repeat(n, (i) => `f${i}=1`)))).toBe('ok');
    expect(await statusOf(() => form(repeat(n + 1, (i) => `f${i}=1`)))).toBe(413);
    expect(await statusOf(() => form(`${repeat(n, (i) => `f${i}=1`)}&&&`))).toBe('ok');
    // The objects bracket keys make count too: 10,000 keys of 31 `[]` would make 310,000 of them.
    expect(await statusOf(() => form(repeat(n - 1, () => 'a[]=1')))).toBe('ok');
    expect(await statusOf(() => form(repeat(n, () => 'a[]=1')))).toBe(413);
    expect(await statusOf(() => form(repeat(n / 10, () => `a${'[]'.repeat(BODY_CAPS.depth - 1)}=1`)))).toBe(413);
    expect(await statusOf(() => json(`{"a":[${repeat(n - 1, () => '1', ',')}]}`))).toBe('ok');
    expect(await statusOf(() => json(`{"a":[${repeat(n, () => '1', ',')}]}`))).toBe(413);
    expect(await statusOf(() => json(`{${repeat(n + 1, (i) => `"k${i}":"a,{["`, ',')}}`))).toBe(413);
    expect(await statusOf(() => multipart(Array.from({ length: n }, (_, i) => [`f${i}`, '1'])))).toBe('ok');
    expect(await statusOf(() => multipart(Array.from({ length: n + 1 }, (_, i) => [`f${i}`, '1'])))).toBe(413);
  });

  it(`refuses nesting deeper than ${BODY_CAPS.depth} levels with 413, in every encoding`, async () => {
    const key = (levels: number) => `a${'[]'.repeat(levels - 1)}`; // the body itself is the first level
    expect(await statusOf(() => form(`${key(BODY_CAPS.depth)}=1`))).toBe('ok');
    expect(await statusOf(() => form(`${key(BODY_CAPS.depth + 1)}=1`))).toBe(413);
    expect(await statusOf(() => multipart([[key(BODY_CAPS.depth), '1']]))).toBe('ok');
    expect(await statusOf(() => multipart([[key(BODY_CAPS.depth + 1), '1']]))).toBe(413);
    const nested = (levels: number) => `{"a":${'['.repeat(levels - 1)}${']'.repeat(levels - 1)}}`;
    expect(await statusOf(() => json(nested(BODY_CAPS.depth)))).toBe('ok');
    expect(await statusOf(() => json(nested(BODY_CAPS.depth + 1)))).toBe(413);
    // Brackets inside strings are text, not nesting.
    expect(await statusOf(() => json(`{"a":"${'[{'.repeat(100)}\\"${'['.repeat(100)}"}`))).toBe('ok');
  });

  it('gives a clear message for each cap', async () => {
    await expect(form(repeat(BODY_CAPS.fields + 1, () => 'a=1'))).rejects.toThrow(
      `more than ${BODY_CAPS.fields} fields`,
    );
    await expect(json('['.repeat(BODY_CAPS.depth + 1))).rejects.toThrow(`more than ${BODY_CAPS.depth} levels`);
  });

  // Tens of ms each on a quiet machine (bench/bodies.ts measures them); before the fix the first took hours. What
  // keeps the service answering meanwhile is counted here, not timed: no stretch of the parser's own work longer
  // than a slice, and the event loop handed back between slices.
  it(`parses the worst 4 MB bodies in slices of at most ${SLICE_BYTES / 1024} KB, handing the event loop back between them`, async () => {
    const size = 4 * 1024 * 1024 - 16;
    const formType = 'application/x-www-form-urlencoded';
    const manyParts = multipartBody(Array.from({ length: size / 60 }, () => ['a[]', ''] as [string, string]));
    const bodies: { name: string; body: string | Buffer; type: string; accepted: boolean }[] = [
      { name: 'form: empty fields', body: 'a=&'.repeat(size / 3), type: formType, accepted: false },
      { name: 'form: one deep key', body: `a${'[]'.repeat(size / 2 - 2)}=1`, type: formType, accepted: false },
      {
        name: 'form: one key, brackets unclosed',
        body: `a${'[b'.repeat(size / 2 - 2)}=1`,
        type: formType,
        accepted: true,
      },
      { name: 'form: separators only', body: '&'.repeat(size), type: formType, accepted: true },
      {
        name: 'json: deep',
        body: `${'['.repeat(size / 2)}${']'.repeat(size / 2)}`,
        type: 'application/json',
        accepted: false,
      },
      { name: 'json: wide', body: `[${'1,'.repeat(size / 2 - 1)}1]`, type: 'application/json', accepted: false },
      {
        name: 'json: escapes',
        body: `{"a":"${'\\"'.repeat(size / 2 - 8)}"}`,
        type: 'application/json',
        accepted: true,
      },
      { name: 'multipart: empty fields', body: manyParts.body, type: manyParts.type, accepted: false },
      ...worstBodies().map((b) => ({
        name: `${b.kind}: ${b.name}`,
        body: b.body,
        type: b.contentType,
        accepted: b.accepted,
      })),
    ];
    // A socket hands over 64 KB at a time, or megabytes at once when the body arrived before it was read (which
    // only multipart parses as it comes; the others read the whole body first).
    const ways = bodies.flatMap((b) =>
      (b.type.startsWith('multipart/') ? [64 * 1024, 4 * 1024 * 1024] : [64 * 1024]).map((chunkBytes) => ({
        ...b,
        chunkBytes,
      })),
    );
    for (const { name, body, type, accepted, chunkBytes } of ways) {
      const work = new ParseWork();
      const what = `${name}, in chunks of ${chunkBytes / 1024} KB`;
      expect(await statusOf(() => readFields(requestContext(body, type, { chunkBytes }), BODY_LIMIT, work)), what).toBe(
        accepted ? 'ok' : 413,
      );
      expect(work.longestStretch, what).toBeLessThanOrEqual(SLICE_BYTES);
      if (!accepted) continue;
      expect(work.bytesRead, what).toBe(Buffer.byteLength(body));
      expect(work.longestStretch, what).toBeGreaterThan(0);
      expect(work.yields, what).toBeGreaterThanOrEqual(Math.floor(Buffer.byteLength(body) / SLICE_BYTES));
    }
  }, 120_000);

  it('stops reading a body at the byte limit, and reads none of one declared larger', async () => {
    const limit = 1024 * 1024;
    const body = Buffer.alloc(4 * limit, 'a');
    const parts = multipartBody([['a', 'x'.repeat(4 * limit)]]);
    for (const [name, bytes, type] of [
      ['urlencoded', body, 'application/x-www-form-urlencoded'],
      ['JSON', body, 'application/json'],
      ['multipart', parts.body, parts.type],
    ] as const) {
      const undeclared = new ParseWork();
      expect(
        await statusOf(() => readFields(requestContext(bytes, type, { declared: false }), limit, undeclared)),
        name,
      ).toBe(413);
      // The chunk that went past the limit is the last one read (and multipart allows its headers 64 KB more).
      expect(undeclared.bytesRead, name).toBeLessThanOrEqual(limit + 2 * 64 * 1024);
      const declared = new ParseWork();
      expect(await statusOf(() => readFields(requestContext(bytes, type), limit, declared)), name).toBe(413);
      if (name !== 'multipart') expect(declared.bytesRead, name).toBe(0);
    }
  });
});
