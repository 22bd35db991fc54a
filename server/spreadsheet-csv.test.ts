import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CsvParser } from './dashboard/csv.js';
import { csvCell, csvLine, INERT_PREFIXED } from './spreadsheet-csv.js';

/** What an import of our own CSV does to a cell: takes the inert prefix off. */
const restored = (cell: string) => (INERT_PREFIXED.test(cell) ? cell.slice(1) : cell);

describe('csvCell', () => {
  it('makes cells a spreadsheet would run inert', () => {
    for (const start of ['=', '+', '-', '@', '\t', '\r']) expect(csvCell(`${start}1+1`)).toMatch(/^"?'/);
    expect(csvCell('=SUM(A1:A3)')).toBe("'=SUM(A1:A3)");
    expect(csvCell('@cmd')).toBe("'@cmd");
    expect(csvCell("'=already")).toBe("''=already");
    expect(csvCell("'quoted' text")).toBe("'quoted' text");
    expect(csvCell('fine = fine')).toBe('fine = fine');
  });

  it('quotes commas, quotes and line breaks (RFC 4180), and leaves numbers and empty values alone', () => {
    expect(csvCell('a, b')).toBe('"a, b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('one\r\ntwo')).toBe('"one\r\ntwo"');
    expect(csvCell(-1)).toBe('-1');
    expect(csvCell(null)).toBe('');
    expect(csvCell(true)).toBe('true');
    expect(csvLine(['a', 1, null])).toBe('a,1,\r\n');
  });

  it('reads back as written, once the inert prefix is taken off (any text)', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary', maxLength: 40 }), { minLength: 1, maxLength: 6 }), (cells) => {
        const parser = new CsvParser({ fieldChars: 1000, fields: 50 });
        const records = [...parser.push(`h\r\n${csvLine(cells)}`), ...parser.end()];
        // A record of one empty cell is an empty line, which readers skip.
        if (cells.length === 1 && cells[0] === '') return;
        expect(records[1]!.fields.map(restored)).toEqual(cells);
      }),
      { seed: 19, numRuns: 200 },
    );
  });
});
