import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../test/harness.js';
import type { Webshop } from '../webshops/store.js';

let t: TestApp;
let shop: Webshop;
beforeAll(async () => {
  t = await startTestApp();
  shop = await t.createShop({
    name: 'Boeken <BV>',
    languages: [{ name: 'Nederlands', url: 'https://shop.example/', iso: 'nl', all: false, main: true }],
  });
  for (const rating of [5, 4, 4]) {
    await t.services.reviews.create(shop.id, {
      name: 'A',
      email: 'a@example.com',
      rating,
      language: 'nl',
      comment: 'ok',
    });
  }
  await t.services.reviews.create(shop.id, {
    name: 'Q',
    email: 'q@example.com',
    rating: 1,
    language: 'nl',
    quarantine: true,
  });
});
afterAll(() => t.close());

const snippet = async (query: string) => {
  const res = await t.fetch(`/webshops/rich_snippet?${query}`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
  return res.json();
};

describe('GET /webshops/rich_snippet', () => {
  it('answers the score out of 10 and the count of published reviews with AggregateRating markup', async () => {
    const body = await snippet(`id=${shop.id}&lang=en`);
    expect(Object.keys(body)).toEqual(['result', 'content']);
    expect(body.result).toBe('ok');
    const html: string = body.content;
    expect(html).toContain('itemtype="https://schema.org/AggregateRating"');
    expect(html).toContain('<meta itemprop="ratingValue" content="8.7"/>');
    expect(html).toContain('<meta itemprop="bestRating" content="10"/>');
    expect(html).toContain('<meta itemprop="worstRating" content="1"/>');
    expect(html).toContain('<meta itemprop="ratingCount" content="3"/>');
    expect(html).toContain('<strong>8.7</strong>/10 · 3 reviews');
    expect(html).toContain('Boeken &lt;BV>');
  });

  it('speaks the requested language in any of the forms plugins send, else the shop’s main language', async () => {
    expect((await snippet(`id=${shop.id}&lang=nl`)).content).toContain('<strong>8,7</strong>/10 · 3 beoordelingen');
    expect((await snippet(`id=${shop.id}&lang=de_DE`)).content).toContain('3 Bewertungen');
    expect((await snippet(`id=${shop.id}&lang=hrv`)).content).toContain('3 recenzije');
    expect((await snippet(`id=${shop.id}`)).content).toContain('beoordelingen');
    expect((await snippet(`id=${shop.id}&lang=xx`)).content).toContain('beoordelingen');
  });

  it('says there are no reviews yet, without a rating, for a shop without reviews', async () => {
    const other = await t.createShop({ name: 'New' });
    const body = await snippet(`id=${other.id}&lang=en`);
    expect(body.result).toBe('ok');
    expect(body.content).toContain('No reviews yet');
    expect(body.content).not.toContain('AggregateRating');
  });

  it.each([
    ['an unknown shop', 'id=987654', 'There is no webshop with id 987654.'],
    ['no id', 'lang=en', 'The parameter id must be a webshop id.'],
    ['a malformed id', 'id[$ne]=1', 'The parameter id must be a webshop id.'],
  ])('answers result error for %s', async (_name, query, error) => {
    expect(await snippet(query)).toEqual({ result: 'error', error });
  });
});
