import { describe, expect, it } from 'vitest';
import { CsvByteReader, CsvFileError, CsvParser, delimiterOf, type CsvRecord } from './csv.js';

function parse(text: string, chunk = text.length || 1): CsvRecord[] {
  const parser = new CsvParser();
  const out: CsvRecord[] = [];
  for (let i = 0; i < text.length; i += chunk) out.push(...parser.push(text.slice(i, i + chunk)));
  return [...out, ...parser.end()];
}

function readBytes(bytes: Uint8Array, chunk: number): CsvRecord[] {
  const reader = new CsvByteReader();
  const out: CsvRecord[] = [];
  for (let i = 0; i < bytes.length; i += chunk) out.push(...reader.push(bytes.subarray(i, i + chunk)));
  return [...out, ...reader.end()];
}

describe('delimiterOf', () => {
  it('takes the delimiter that occurs more often outside quotes', () => {
    expect(delimiterOf('email,order,name')).toBe(',');
    expect(delimiterOf('email;order;name')).toBe(';');
    expect(delimiterOf('"a;b;c",order')).toBe(',');
    expect(delimiterOf('email')).toBe(',');
  });
});

describe('CsvParser', () => {
  it('reads comma files with LF and numbers rows as a spreadsheet does (header is row 1)', () => {
    expect(parse('email,order\na@x.nl,1\nb@x.nl,2\n')).toEqual([
      { row: 1, fields: ['email', 'order'] },
      { row: 2, fields: ['a@x.nl', '1'] },
      { row: 3, fields: ['b@x.nl', '2'] },
    ]);
  });

  it('reads semicolon files with CRLF and no line break at the end', () => {
    expect(parse('email;order;name\r\na@x.nl;1;Jan, de Vries\r\nb@x.nl;2;')).toEqual([
      { row: 1, fields: ['email', 'order', 'name'] },
      { row: 2, fields: ['a@x.nl', '1', 'Jan, de Vries'] },
      { row: 3, fields: ['b@x.nl', '2', ''] },
    ]);
  });

  it('reads quotes: doubled quotes, delimiters and line breaks inside them', () => {
    const records = parse('email,name\r\na@x.nl,"Jan ""JJ"", de Vries"\r\nb@x.nl,"two\r\nlines"\r\nc@x.nl,x\r\n');
    expect(records.map((r) => r.fields)).toEqual([
      ['email', 'name'],
      ['a@x.nl', 'Jan "JJ", de Vries'],
      ['b@x.nl', 'two\r\nlines'],
      ['c@x.nl', 'x'],
    ]);
    expect(records.map((r) => r.row)).toEqual([1, 2, 3, 4]);
  });

  it('gives the same records whatever the chunks, a CRLF split between two included', () => {
    const text = 'email;order\r\n"a;b@x.nl";"1""2"\r\n\r\nc@x.nl;3\r\n';
    const whole = parse(text);
    for (const size of [1, 2, 3, 5, 7]) expect(parse(text, size)).toEqual(whole);
    expect(whole).toEqual([
      { row: 1, fields: ['email', 'order'] },
      { row: 2, fields: ['a;b@x.nl', '1"2'] },
      { row: 4, fields: ['c@x.nl', '3'] },
    ]);
  });

  it('skips empty lines but keeps counting them', () => {
    expect(parse('email\n\n\na@x.nl\n').map((r) => r.row)).toEqual([1, 4]);
  });

  it('marks a record with text after a closing quote and carries on', () => {
    const records = parse('email,name\na@x.nl,"Jan"x\nb@x.nl,Piet\n');
    expect(records[1]).toMatchObject({ row: 2, error: 'text after a closing quote in field 2' });
    expect(records[2]).toEqual({ row: 3, fields: ['b@x.nl', 'Piet'] });
  });

  it('marks an unclosed quote at the end of the file', () => {
    const records = parse('email,name\na@x.nl,"Jan\n');
    expect(records[1]).toMatchObject({ row: 2, error: expect.stringMatching(/not closed/) });
  });

  it('keeps a quote inside an unquoted field', () => {
    expect(parse('a,b\nx"y,z\n')[1]!.fields).toEqual(['x"y', 'z']);
  });

  it('bounds a field and a record instead of holding them', () => {
    const parser = new CsvParser({ fieldChars: 5, fields: 2 });
    const records = [...parser.push('a,b\n123456,x\n1,2,3\nok,ok\n'), ...parser.end()];
    expect(records[1]).toMatchObject({ row: 2, error: 'field 1 is longer than 5 characters' });
    expect(records[1]!.fields[0]).toBe('12345');
    expect(records[2]).toMatchObject({ row: 3, error: 'more than 2 fields' });
    expect(records[3]).toEqual({ row: 4, fields: ['ok', 'ok'] });
  });

  it('refuses a header row that never ends', () => {
    const parser = new CsvParser();
    expect(() => parser.push('x'.repeat(70_000))).toThrow(CsvFileError);
  });

  it('reads a header-only file and an empty one', () => {
    expect(parse('email;order')).toEqual([{ row: 1, fields: ['email', 'order'] }]);
    expect(parse('')).toEqual([]);
  });
});

describe('CsvByteReader', () => {
  it('drops the byte-order mark and joins characters split between chunks', () => {
    const bytes = new TextEncoder().encode('\uFEFFemail;name\r\nzoë@x.nl;Zoë Ørsted\r\n');
    for (const size of [1, 2, 3, 64]) {
      expect(readBytes(bytes, size).map((r) => r.fields)).toEqual([
        ['email', 'name'],
        ['zoë@x.nl', 'Zoë Ørsted'],
      ]);
    }
  });

  it('refuses bytes that are not UTF-8, naming the fix', () => {
    const latin1 = Uint8Array.from([...Buffer.from('email;name\r\na@x.nl;Zo'), 0xeb, 0x0d, 0x0a]);
    expect(() => readBytes(latin1, 64)).toThrow(/CSV UTF-8/);
  });
});
