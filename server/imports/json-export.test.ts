// Reading our own JSON export (json-export.ts) through the import's two passes (read.ts), pure: the bytes come from
// memory in small pieces, so that strings, escapes, brackets and line ends fall across pieces.
import { describe, expect, it } from 'vitest';
import { ImportFileError } from './decode.js';
import { JsonArrayReader } from './json-export.js';
import { analyse, importRows, type RowOutcome } from './read.js';
import type { ImportItem, RowProblem } from './rules.js';

const NOW = new Date('2026-01-01T00:00:00Z');

const opener = (bytes: Uint8Array, piece: number) =>
  async function* () {
    for (let i = 0; i < bytes.length; i += piece) yield bytes.subarray(i, i + piece);
  };

const record = (over: Record<string, unknown> = {}) => ({
  id: 7,
  status: 'published',
  origin: 'verified',
  source: 'invitation',
  verified: true,
  incentivised: false,
  imported_from: null,
  original_date: null,
  experience_date: '2025-10-01T00:00:00.000Z',
  created: '2025-11-02T10:00:00.000Z',
  modified: '2025-11-02T10:00:00.000Z',
  name: 'Fenna',
  email: 'fenna@customer.example',
  rating: 5,
  ratings: { delivery: 0 },
  comment: 'Quotes " and \\ backslashes, {braces} and [brackets], commas, and a\nline break',
  language: 'en',
  country: 'GB',
  order: 'A-1',
  products: [{ id: 'P-1', name: 'Teapot', url: 'https://shop.example/t', rating: 4, comment: 'Pours well' }],
  replies: [{ text: 'Thank you', date: '2025-11-03T08:30:00.000Z' }],
  photo_urls: ['https://reviews.example/photos/abc.webp'],
  title: '',
  ...over,
});

/** As the export writes it: `[`, one record per line, `]`. */
const exportFile = (records: unknown[], bom = false) =>
  new TextEncoder().encode(`${bom ? '\uFEFF' : ''}[\n${records.map((r) => JSON.stringify(r)).join(',\n')}\n]\n`);

async function readAll(bytes: Uint8Array, piece = 5) {
  const analysis = await analyse(opener(bytes, piece), 'utf-8', {});
  const out: RowOutcome[] = [];
  for await (const batch of importRows(opener(bytes, piece), 'utf-8', analysis, { now: NOW })) out.push(...batch);
  return {
    analysis,
    items: out.filter((r): r is ImportItem => 'key' in r),
    problems: out.filter((r): r is RowProblem => 'reason' in r),
  };
}

describe('our JSON export as an import file', () => {
  it('is found by its first character and read whole: texts, reply, products, photos, dates', async () => {
    for (const piece of [1, 3, 7, 1000]) {
      const { analysis, items, problems } = await readAll(exportFile([record()], true), piece);
      expect(analysis).toMatchObject({ format: 'export_json', platform: 'Review export', rows: 1 });
      expect(problems).toEqual([]);
      expect(items).toHaveLength(1);
      expect(items[0]).toMatchObject({
        line: 2,
        kind: 'store',
        key: 'reviewexport:id:7',
        rating: 5,
        text: record().comment,
        name: 'Fenna',
        email: 'fenna@customer.example',
        country: 'GB',
        language: 'en',
        date: new Date('2025-11-02T10:00:00.000Z'),
        experienceDate: new Date('2025-10-01T00:00:00.000Z'),
        reply: { text: 'Thank you', date: new Date('2025-11-03T08:30:00.000Z') },
        sourceVerified: true,
        photos: ['https://reviews.example/photos/abc.webp'],
        products: [expect.objectContaining({ external_id: 'P-1', name: 'Teapot', rating: 4, content: 'Pours well' })],
      });
    }
  });

  it('reports a bad element by its line and position, and imports the rest', async () => {
    const text = [
      '[',
      JSON.stringify(record({ id: 1 })),
      ',{"id": 2, "rating": "five", "created": "2025-01-01T00:00:00Z"}',
      ',{"id": 3, "created": "2025-01-01T00:00:00Z"}',
      ',{"id": 4, "rating": 4, "created": "2025-01-01T00:00:00Z", oops}',
      ',"just a string"',
      `,${JSON.stringify(record({ id: 6, status: 'deleted' }))}`,
      `,${JSON.stringify(record({ id: 7, status: 'quarantined', original_date: '2024-05-06T07:08:09.000Z' }))}`,
      ']',
    ].join('\n');
    const { items, problems } = await readAll(new TextEncoder().encode(text), 4);
    expect(items.map((i) => [i.line, i.sourceId, i.held])).toEqual([
      [2, '1', false],
      [8, '7', true],
    ]);
    expect(items[1]!.date).toEqual(new Date('2024-05-06T07:08:09.000Z'));
    expect(problems).toEqual([
      { line: 3, reason: expect.stringMatching(/^rating "five" is not a whole number/) },
      { line: 4, reason: expect.stringMatching(/^review 3 of the array: rating: /) },
      { line: 5, reason: 'review 4 of the array: not valid JSON' },
      { line: 6, reason: 'review 5 of the array: not a JSON object' },
      { line: 7, reason: 'review 6 of the array: removed at the source (status deleted): not imported' },
    ]);
  });

  it('imports nothing from a file that is not one whole JSON array', async () => {
    const bad = [
      ['{"id": 1}', /does not start with "\["/],
      ['[{"id": 1, "rating": 5}', /not closed/],
      ['[{"id": 1, "rating": 5, "comment": "never ends}]', /not closed/],
      ['[{"id": 1} {"id": 2}]', /comma is missing/],
      ['[{"id": 1}] trailing', /after the end/],
      ['[ ]', /holds no reviews/],
    ] as const;
    for (const [text, message] of bad) {
      const failure = await readAll(new TextEncoder().encode(text)).catch((err: unknown) => err);
      expect(failure, text).toBeInstanceOf(ImportFileError);
      expect((failure as Error).message, text).toMatch(message);
    }
  });

  it('refuses an element past its size limit instead of holding the rest of the file', () => {
    const reader = new JsonArrayReader();
    reader.push('[{"comment": "');
    const chunk = 'x'.repeat(100_000);
    expect(() => {
      for (let i = 0; i < 11; i++) reader.push(chunk);
    }).toThrow(/line 1 is longer than 1,000,000 characters/);
  });
});
