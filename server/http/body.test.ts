import { describe, expect, it } from 'vitest';
import { asList, parseFormEncoded } from './body.js';

describe('parseFormEncoded (PHP-style forms)', () => {
  it('reads plain fields, keeping leading zeros and empty strings', () => {
    expect({ ...parseFormEncoded('email=a%40b.nl&order=000123&delay=') }).toEqual({ email: 'a@b.nl', order: '000123', delay: '' });
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
