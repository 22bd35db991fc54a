import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CsvReader, delimiterOf, IMPORT_LIMITS } from './csv.js';
import { DateOrderEvidence, parseDate } from './dates.js';
import { EncodingSniffer, ImportFileError } from './decode.js';
import { detectFormat } from './formats.js';
import { analyse, DateOrderNeeded, importRows, type ReadOptions, type RowOutcome } from './read.js';
import { identityOf, ratingOf, type ImportItem, type RowProblem } from './rules.js';

const NOW = new Date('2026-01-01T00:00:00Z');
const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url));

/** The bytes in pieces of 7, so that characters, quotes and line ends fall across pieces. */
const opener = (bytes: Uint8Array) =>
  async function* () {
    for (let i = 0; i < bytes.length; i += 7) yield bytes.subarray(i, i + 7);
  };

function encodingOf(bytes: Uint8Array) {
  const sniffer = new EncodingSniffer();
  for (let i = 0; i < bytes.length; i += 5) sniffer.push(bytes.subarray(i, i + 5));
  return sniffer.encoding();
}

async function readAll(name: string, options: ReadOptions = {}) {
  const bytes = fixture(name);
  const encoding = encodingOf(bytes);
  const analysis = await analyse(opener(bytes), encoding, options);
  const out: RowOutcome[] = [];
  for await (const batch of importRows(opener(bytes), encoding, analysis, { ...options, now: NOW })) out.push(...batch);
  const items = out.filter((r): r is ImportItem => 'key' in r);
  const problems = out.filter((r): r is RowProblem => 'reason' in r);
  return { encoding, analysis, items, problems, all: out };
}

describe('file encodings', () => {
  it('reads UTF-8 with a BOM, UTF-16 LE and BE with a BOM, and Windows-1252', () => {
    expect(encodingOf(fixture('yotpo.csv'))).toBe('utf-8');
    expect(encodingOf(fixture('yotpo-legacy.csv'))).toBe('utf-8');
    expect(encodingOf(fixture('judgeme.csv'))).toBe('utf-16le');
    expect(encodingOf(fixture('trustpilot-utf16be.csv'))).toBe('utf-16be');
    expect(encodingOf(fixture('trustpilot.csv'))).toBe('windows-1252');
  });

  it('refuses archives, workbooks, binary files and other code pages, saying why', () => {
    const refusal = (bytes: number[]) => {
      try {
        encodingOf(Uint8Array.from(bytes));
      } catch (err) {
        expect(err).toBeInstanceOf(ImportFileError);
        return (err as Error).message;
      }
      throw new Error('accepted');
    };
    expect(refusal([0x50, 0x4b, 0x03, 0x04, 1, 2, 3])).toMatch(/ZIP archive or an Excel/);
    expect(refusal([0x1f, 0x8b, 8, 0])).toMatch(/gzip archive/);
    expect(refusal([0x61, 0x00, 0x62, 0x00])).toMatch(/NUL bytes .*UTF-16 without a byte-order mark/);
    // 0x81 means nothing in Windows-1252, and the bytes are not UTF-8 either.
    expect(refusal([0x61, 0x2c, 0xe9, 0x81, 0x0a])).toMatch(/neither UTF-8, UTF-16 nor Windows-1252/);
    expect(refusal([])).toMatch(/empty/);
  });
});

describe('CSV reading', () => {
  const rows = (text: string, piece = 3) => {
    const csv = new CsvReader();
    const out = [];
    for (let i = 0; i < text.length; i += piece) out.push(...csv.push(text.slice(i, i + piece)));
    return [...out, ...csv.end()];
  };

  it('reads comma, semicolon and tab files, quoted line breaks and doubled quotes, whatever the pieces', () => {
    expect(delimiterOf('a;b;c')).toBe(';');
    expect(delimiterOf('a\tb\tc')).toBe('\t');
    expect(delimiterOf('"a,b";c')).toBe(';');
    for (const piece of [1, 2, 5, 100]) {
      expect(rows('h1;h2\r\n"a;b";"line\r\nbreak ""quoted"""\r\n\r\nx;y', piece)).toEqual([
        { line: 1, cells: ['h1', 'h2'] },
        { line: 2, cells: ['a;b', 'line\r\nbreak "quoted"'] },
        { line: 4, cells: ['x', 'y'] },
      ]);
    }
  });

  it('ends the read at a cell past the limit (an unclosed quote) or a row of too many columns', () => {
    expect(() => rows(`h\n"${'x'.repeat(IMPORT_LIMITS.cellChars + 1)}`, 1000)).toThrow(/longer than 20,000/);
    expect(() => rows(`${Array.from({ length: 101 }, (_, i) => `c${i}`).join(',')}\n`)).toThrow(
      /more than 100 columns/,
    );
    expect(() => rows('h\n"never closed\n')).toThrow(/not closed/);
  });
});

describe('dates', () => {
  it('reads ISO 8601 and YYYY-MM-DD HH:MM:SS with UTC, an offset or nothing (UTC)', () => {
    const iso = (s: string) => parseDate(s, 'dmy')?.toISOString();
    expect(iso('2024-03-05T10:20:30Z')).toBe('2024-03-05T10:20:30.000Z');
    expect(iso('2024-03-05T10:20:30.123+01:00')).toBe('2024-03-05T09:20:30.000Z');
    expect(iso('2024-03-05 10:20:30 UTC')).toBe('2024-03-05T10:20:30.000Z');
    expect(iso('2024-03-05 10:20:30 -0200')).toBe('2024-03-05T12:20:30.000Z');
    expect(iso('2024-03-05 10:20:30')).toBe('2024-03-05T10:20:30.000Z');
    expect(iso('2024-03-05')).toBe('2024-03-05T00:00:00.000Z');
    expect(iso('2024-02-30 10:00:00')).toBeUndefined();
    expect(parseDate('03/04/2024 1:05 pm', 'mdy')?.toISOString()).toBe('2024-03-04T13:05:00.000Z');
    expect(parseDate('03/04/2024', 'dmy')?.toISOString()).toBe('2024-04-03T00:00:00.000Z');
    expect(parseDate('25.12.2023', 'mdy')).toBeUndefined();
  });

  it('decides the order of day and month over the whole file, and asks when it cannot', () => {
    const decide = (dates: string[]) => {
      const evidence = new DateOrderEvidence();
      for (const [i, d] of dates.entries()) evidence.add(d, i + 2);
      return evidence.decide(undefined);
    };
    expect(decide(['03/04/2024', '25/12/2023'])).toBe('dmy');
    expect(decide(['03/04/2024', '12/25/2023'])).toBe('mdy');
    expect(decide(['03/04/2024', '2024-01-01'])).toBeUndefined();
    expect(decide(['25/12/2023', '12/25/2023'])).toBeUndefined();
    expect(decide(['2024-01-01'])).toBe('dmy');
  });
});

describe('rules', () => {
  it('maps ratings of 1 to 5 stars to ours, and nothing else', () => {
    expect([ratingOf('5'), ratingOf(' 4.0 '), ratingOf('3,0'), ratingOf('1')]).toEqual([5, 4, 3, 1]);
    expect([ratingOf('0'), ratingOf('6'), ratingOf('4.5'), ratingOf('five'), ratingOf('')]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('names a review by the platform and its id, or by a hash of date, name and text', () => {
    const date = new Date('2024-01-01T00:00:00Z');
    expect(identityOf('Judge.me', { sourceId: ' 42 ', date, name: 'A', text: 'B' })).toBe('judgeme:id:42');
    const a = identityOf('Judge.me', { sourceId: '', date, name: 'A', text: 'B' });
    expect(a).toMatch(/^judgeme:hash:[0-9a-f]{32}$/);
    expect(identityOf('Judge.me', { sourceId: '', date, name: 'A', text: 'B ' })).toBe(a);
    expect(identityOf('Judge.me', { sourceId: '', date, name: 'A', text: 'C' })).not.toBe(a);
  });

  it('recognises each format by its header, whatever the case, spacing and order', () => {
    expect(detectFormat([' review  SCORE', 'Review ID', 'review creation date', 'Review Content'])).toBe('yotpo');
    expect(detectFormat(['Review Stars', 'Review Created (UTC)', 'Review Id'])).toBe('trustpilot');
    expect(detectFormat(['rating', 'body', 'review_date'])).toBe('judgeme');
    expect(detectFormat(['name', 'stars', 'text'])).toBeUndefined();
  });
});

describe('each platform’s file', () => {
  it('Yotpo (UTF-8 with a BOM): store and product reviews, the quoted line break, held rows, problems by line', async () => {
    const { analysis, items, problems } = await readAll('yotpo.csv');
    expect(analysis).toMatchObject({ format: 'yotpo', platform: 'Yotpo', rows: 4 });
    expect(items.map((i) => [i.line, i.kind, i.held])).toEqual([
      [2, 'store', false],
      // A line is a row as a spreadsheet numbers it: the quoted line break does not count.
      [3, 'product', false],
      [4, 'store', true],
    ]);
    const [store, product, held] = items as [ImportItem, ImportItem, ImportItem];
    expect(store).toMatchObject({
      key: 'yotpo:id:101',
      rating: 5,
      title: 'Great shop',
      text: 'Fast delivery.\nWould buy "again".',
      name: 'Anna B.',
      email: 'anna@example.com',
      country: 'NL',
      sourceVerified: true,
      reply: { text: 'Thank you!', date: new Date('2024-03-06T09:00:00Z') },
      experienceDate: new Date('2024-03-01T00:00:00Z'),
      date: new Date('2024-03-05T10:20:30Z'),
    });
    expect(product).toMatchObject({
      incentivised: true,
      photos: ['https://img.example/p1.jpg'],
      product: {
        external_id: 'P-9',
        sku: 'SKU-9',
        gtin: '8712345678906',
        name: 'Blue mug',
        url: 'https://shop.example/mug',
      },
    });
    // The private comment stays private; the offset is applied.
    expect(held).toMatchObject({ reply: null, sourceStatus: 'Unpublished', date: new Date('2024-03-08T10:00:00Z') });
    expect(problems).toEqual([{ line: 5, reason: 'rating "six" is not a whole number from 1 to 5' }]);
  });

  it('Yotpo older export (semicolons): site reviews are the shop’s, javascript: URLs are dropped', async () => {
    const { analysis, items } = await readAll('yotpo-legacy.csv');
    expect(analysis.format).toBe('yotpo_legacy');
    expect(items.map((i) => [i.kind, i.rating, i.held, i.reply?.text ?? null])).toEqual([
      ['store', 5, false, 'Glad you liked it'],
      ['product', 3, false, null],
      ['store', 2, true, null],
    ]);
    expect(items[1]!.product).toMatchObject({ external_id: 'LAMP-1', name: 'Desk lamp', url: '' });
    expect(items[0]!.key).toMatch(/^yotpo:hash:/);
  });

  it('Judge.me (UTF-16 LE): product reviews only, spam held, pictures kept as data, incentive from the source', async () => {
    const { items } = await readAll('judgeme.csv');
    expect(items.map((i) => [i.kind, i.held, i.incentivised])).toEqual([
      ['product', false, false],
      ['product', true, false],
      ['product', false, true],
    ]);
    expect(items[0]).toMatchObject({
      text: 'Heel zachte trui – aanrader',
      photos: ['https://img.example/a.jpg', 'https://img.example/b.jpg'],
      product: { external_id: '7001', handle: 'warm-sweater' },
      reply: { text: 'Dank je!' },
    });
    expect(items[2]!.product).toMatchObject({ external_id: 'socks', handle: 'socks' });
  });

  it('Shopify Product Reviews (tabs, day-first dates found from the file)', async () => {
    const { analysis, items, problems } = await readAll('shopify-product-reviews.csv');
    expect(analysis).toMatchObject({ format: 'shopify_product_reviews', dateOrder: 'dmy' });
    expect(items[0]).toMatchObject({
      date: new Date('2023-12-25T18:30:00Z'),
      reply: { text: 'Thanks Jan', date: new Date('2023-12-27T09:00:00Z') },
      product: { handle: 'blue-mug' },
    });
    expect(items[1]).toMatchObject({ held: true, date: new Date('2024-01-03T10:00:00Z') });
    expect(problems).toEqual([{ line: 4, reason: 'date "31/02/2024 10:00" cannot be read' }]);
  });

  it('WooCommerce: the shop’s child rows become replies, others are skipped and reported', async () => {
    const { analysis, items, problems, all } = await readAll('woocommerce.csv', {
      replyAuthors: ['OWNER@shop.example'],
    });
    expect(analysis.replyAuthorsFound).toEqual(['owner@shop.example', 'nora@example.com']);
    expect(items.map((i) => [i.key, i.held])).toEqual([
      ['woocommerce:id:11', false],
      ['woocommerce:id:14', true],
    ]);
    expect(items[0]).toMatchObject({
      date: new Date('2024-02-01T09:00:00Z'),
      reply: { text: 'Thanks Mia!', date: new Date('2024-02-02T09:00:00Z') },
      product: { external_id: '501', sku: 'TEA-1' },
    });
    expect(items[1]!.date).toEqual(new Date('2024-02-04T10:00:00Z'));
    expect(all).toContainEqual({ line: 3, replyTo: '11' });
    expect(problems).toEqual([
      { line: 4, reason: 'a reply to comment 11 by "Nora", not named as the shop (reply_authors): skipped' },
      { line: 6, reason: 'no rating' },
    ]);
  });

  it('Trustpilot (Windows-1252): dates that read both ways need date_order, then import', async () => {
    await expect(readAll('trustpilot.csv')).rejects.toThrow(DateOrderNeeded);
    await expect(readAll('trustpilot.csv')).rejects.toThrow(/date_order=dmy .* date_order=mdy/);
    const { items } = await readAll('trustpilot.csv', { dateOrder: 'mdy' });
    expect(items[0]).toMatchObject({
      key: 'trustpilot:id:tp-1',
      kind: 'store',
      name: 'René',
      text: 'Service parfait pour 20 €',
      date: new Date('2024-03-04T10:00:00Z'),
      reply: { text: 'Merci René', date: new Date('2024-03-05T10:00:00Z') },
      language: 'fr',
      order: 'ORD-1',
    });
  });

  it('Trustpilot in UTF-16 BE', async () => {
    const { items } = await readAll('trustpilot-utf16be.csv');
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ name: 'Zoë', rating: 5 });
  });

  it('an unknown header or a header alone is fatal, naming what was found', async () => {
    const open = opener(new TextEncoder().encode('stars,words\n5,hi\n'));
    await expect(analyse(open, 'utf-8', {})).rejects.toThrow(/line 1\) is not one of a known export.*"stars", "words"/);
    const empty = opener(new TextEncoder().encode('rating,body,review_date\n'));
    await expect(analyse(empty, 'utf-8', {})).rejects.toThrow(/no reviews/);
    await expect(analyse(open, 'utf-8', { format: 'judgeme' })).rejects.toThrow(/lacks the judgeme column/);
  });
});
