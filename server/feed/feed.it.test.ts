import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, withAuth, type TestApp } from '../../test/harness.js';
import type { Webshop } from '../webshops/store.js';
import { validateAgainstXsd, withoutSpecElements } from './feed-fixtures.js';

let t: TestApp;
let shop: Webshop;
const ids: Record<string, number> = {};

const first = (xml: string, name: string) => new RegExp(`<${name}(?: [^>]*)?>([^<]*)</${name}>`).exec(xml)?.[1];
const entries = (xml: string) => xml.match(/<review>.*?<\/review>/g) ?? [];
const reviewIds = (xml: string) => entries(xml).map((e) => first(e, 'review_id'));
const errorBody = (message: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<response><status>error</status><message>${message}</message></response>\n`;

async function xml(path: string): Promise<string> {
  const res = await t.fetch(path);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/xml; charset=utf-8');
  return res.text();
}

const feed = (extra: Record<string, string> = {}) => xml(withAuth('/api/1.0/product_reviews.xml', shop, extra));

async function importReview(json: Record<string, unknown>): Promise<number> {
  const res = await t.admin(`/admin/api/webshops/${shop.id}/reviews`, { method: 'POST', json });
  expect(res.status).toBe(201);
  return (await res.json()).id;
}

/** Pins `modified`, so the tests do not depend on how fast the writes above ran. */
async function setModified(id: number, iso: string): Promise<void> {
  await t.db.collection('reviews').updateOne({ id }, { $set: { modified: new Date(iso) } });
}

beforeAll(async () => {
  t = await startTestApp();
  shop = await t.createShop({ name: 'Fiets & Co', url: 'https://fiets.example/' });
  const bike = {
    id: 101,
    name: 'Racefiets',
    url: 'https://fiets.example/racefiets',
    sku: 'RF-1',
    gtin: '8712345678906',
  };
  ids.a = await importReview({
    name: 'Anna',
    email: 'anna@example.com',
    rating: 5,
    comment: 'Top',
    products: [{ ...bike, rating: 4, content: 'Snel' }],
  });
  ids.b = await importReview({
    name: 'Bram',
    email: 'bram@example.com',
    rating: 3,
    products: [bike, { id: 'bel-2', name: 'Bel' }],
  });
  ids.c = await importReview({ name: 'Cor', email: 'cor@example.com', rating: 2, comment: 'Geen producten' });
  ids.d = await importReview({
    name: 'Dirk',
    email: 'dirk@example.com',
    rating: 4,
    quarantine: true,
    products: [bike],
  });
  await setModified(ids.a, '2024-11-03T07:00:00.400Z');
  await setModified(ids.b, '2024-11-03T08:00:00.900Z');
  await setModified(ids.c, '2024-11-03T08:30:00Z');
  await setModified(ids.d, '2024-11-03T09:00:00Z');
});
afterAll(() => t.close());

describe('GET /api/1.0/product_reviews.xml', () => {
  it('lists the product reviews of reviews with products, by modified, newest first', async () => {
    const body = await feed({ detailed: '1' });
    expect(body).toContain(
      '<publisher><name>Fiets &amp; Co</name><favicon>https://fiets.example/favicon.ico</favicon></publisher>',
    );
    expect(reviewIds(body)).toEqual([`${ids.d}-1`, `${ids.b}-1`, `${ids.b}-2`, `${ids.a}-1`]);
    const [quarantined, , , anna] = entries(body);
    expect(first(quarantined!, 'valid')).toBe('0');
    expect(anna).toContain(`<review_url type="singleton">http://127.0.0.1:1/webshops/${shop.id}</review_url>`);
    expect(first(anna!, 'overall')).toBe('4');
    expect(first(anna!, 'content')).toBe('Snel');
    expect(first(anna!, 'email')).toBe('anna@example.com');
    expect(first(anna!, 'external_id')).toBe('101');
    expect(first(anna!, 'modified')).toBe('2024-11-03T07:00:00+00:00');
  });

  it('validates against Google’s schema without the spec’s own elements', async () => {
    const result = await validateAgainstXsd(withoutSpecElements(await feed({ detailed: '1' })));
    expect(result.errors).toEqual([]);
  });

  it('leaves the sync elements and unpublished reviews out without detailed', async () => {
    for (const detailed of [{}, { detailed: '0' }, { detailed: '' }] as Record<string, string>[]) {
      const body = await feed(detailed);
      expect(reviewIds(body)).toEqual([`${ids.b}-1`, `${ids.b}-2`, `${ids.a}-1`]);
      expect(body).not.toMatch(/<(email|valid|deleted|modified|external_id)\b/);
    }
    expect((await validateAgainstXsd(await feed())).errors).toEqual([]);
  });

  it.each(['1', 'true'])('takes detailed=%s as the detailed feed', async (detailed) => {
    expect(await feed({ detailed })).toContain('<external_id>101</external_id>');
  });

  it('answers an error for a detailed value it does not know', async () => {
    expect(await feed({ detailed: 'maybe' })).toBe(errorBody('The parameter detailed must be 0 or 1.'));
  });
});

describe('last_synced', () => {
  it.each([
    ['Y-m-d H:i:s (UTC)', '2024-11-03 08:00:00'],
    ['ISO 8601 with an offset', '2024-11-03T09:00:00+01:00'],
    ['ISO 8601 in UTC', '2024-11-03T08:00:00Z'],
  ])('accepts %s and compares inclusively', async (_name, lastSynced) => {
    expect(reviewIds(await feed({ detailed: '1', last_synced: lastSynced }))).toEqual([
      `${ids.d}-1`,
      `${ids.b}-1`,
      `${ids.b}-2`,
    ]);
  });

  it('accepts an offset whose + arrived as a space (sent unencoded)', async () => {
    const body = await xml(
      `${withAuth('/api/1.0/product_reviews.xml', shop, { detailed: '1' })}&last_synced=2024-11-03T09:00:00+01:00`,
    );
    expect(reviewIds(body)).toEqual([`${ids.d}-1`, `${ids.b}-1`, `${ids.b}-2`]);
  });

  it('returns the newest review again when a client sends back its modified verbatim', async () => {
    const newest = first(await feed({ detailed: '1' }), 'modified')!;
    expect(reviewIds(await feed({ detailed: '1', last_synced: newest }))).toEqual([`${ids.d}-1`]);
    expect(reviewIds(await feed({ detailed: '1', last_synced: '2024-11-03 09:00:01' }))).toEqual([]);
  });

  it.each(['yesterday', '03-11-2024 08:00:00', '2024-11-03', '2024-13-01 00:00:00'])(
    'answers an error for %j',
    async (lastSynced) => {
      expect(await feed({ last_synced: lastSynced })).toBe(
        errorBody(
          'The parameter last_synced must be a date and time such as 2024-11-03 07:00:00 (UTC) or 2024-11-03T08:00:00+01:00.',
        ),
      );
    },
  );
});

describe('moderation in the feed', () => {
  it('moves a changed review to the top and keeps a deleted one, marked and without personal data', async () => {
    const own = await t.createShop();
    const create = async (name: string) => {
      const res = await t.admin(`/admin/api/webshops/${own.id}/reviews`, {
        method: 'POST',
        json: {
          name,
          email: `${name.toLowerCase()}@example.com`,
          rating: 4,
          comment: `${name} zegt iets`,
          products: [{ id: 1, name: 'Ding', content: 'Mooi ding' }],
        },
      });
      return (await res.json()).id as number;
    };
    const older = await create('Older');
    const newer = await create('Newer');
    await setModified(older, '2024-01-01T00:00:00Z');
    await setModified(newer, '2024-01-02T00:00:00Z');
    const get = () => xml(withAuth('/api/1.0/product_reviews.xml', own, { detailed: '1' }));
    expect(reviewIds(await get())).toEqual([`${newer}-1`, `${older}-1`]);

    expect((await t.admin(`/admin/api/reviews/${older}`, { method: 'DELETE' })).status).toBe(204);
    const body = await get();
    expect(reviewIds(body)).toEqual([`${older}-1`, `${newer}-1`]);
    const [deleted, kept] = entries(body);
    expect(first(deleted!, 'deleted')).toBe('1');
    expect(deleted).not.toMatch(/Older|older@example|zegt iets|Mooi ding/);
    expect(deleted).toContain('<email/>');
    expect(kept).toContain('<deleted/>');

    // Without detailed, a withdrawn review is listed the way Google's schema knows.
    expect(await xml(withAuth('/api/1.0/product_reviews.xml', own))).toContain(
      `<deleted_reviews><review_id>${older}-1</review_id></deleted_reviews>`,
    );
  });
});

describe('errors', () => {
  it.each([
    ['no id', (s: Webshop) => `code=${s.code}`],
    ['no code', (s: Webshop) => `id=${s.id}`],
  ])('answers the missing-variables message in XML with %s', async (_name, query) => {
    expect(await xml(`/api/1.0/product_reviews.xml?${query(shop)}`)).toBe(
      errorBody('Not all obligated variables are set.'),
    );
  });

  it('answers the wrong-credentials message in XML', async () => {
    expect(await xml(`/api/1.0/product_reviews.xml?id=${shop.id}&code=${'0'.repeat(32)}`)).toBe(
      errorBody('Incorrect authentication credentials.'),
    );
  });

  it('answers an unexpected failure in XML, with HTTP 200 and an error id', async () => {
    // biome-ignore lint/correctness/useYield: the mock must be an async generator, one that fails on its first read
    const spy = vi.spyOn(t.services.reviews, 'modifiedSince').mockImplementation(async function* () {
      throw new Error('database gone');
    });
    try {
      const res = await t.fetch(withAuth('/api/1.0/product_reviews.xml', shop));
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/xml; charset=utf-8');
      expect(res.headers.get('x-error-id')).toMatch(/^[0-9a-f-]{36}$/);
      expect(await res.text()).toBe(errorBody('Unexpected error while processing. Please contact Service.'));
    } finally {
      spy.mockRestore();
    }
  });

  it('answers unknown XML paths in XML', async () => {
    const res = await t.fetch('/api/1.0/nothing.xml');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    expect(await res.text()).toBe(errorBody('Not found.'));
  });
});
