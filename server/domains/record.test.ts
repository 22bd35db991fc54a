import { describe, expect, it } from 'vitest';
import type { Webshop } from '../webshops/store.js';
import { isTrueFlag, toDomainRecord } from './record.js';

describe('isTrueFlag', () => {
  it.each(['1', 'true', 'TRUE', 'yes', ' Yes '])('is on for %j', (v) => expect(isTrueFlag(v)).toBe(true));
  it.each([undefined, '', '0', 'false', 'no', 'on', ['1'], '2'])('is off for %j', (v) =>
    expect(isTrueFlag(v)).toBe(false),
  );
});

describe('toDomainRecord', () => {
  const shop = {
    id: 5,
    name: 'S',
    url: 'https://s.example',
    logo: 'https://s.example/logo.png',
    hero_color: '#fff',
    hero_image: '',
    approved_date: null,
    partner_assurances: { a: true },
    created: new Date('2024-05-06T07:08:09Z'),
  } as unknown as Webshop;
  const summary = {
    amount: 3,
    rating_average: 8.7,
    ratings_average: { shippingtime: 0, customerservice: 0, pricequality: 0, aftersale: 0 },
  };

  it('maps the shop and summary, and leaves approved_date out when the shop has none', () => {
    expect(
      toDomainRecord(shop, summary, { baseUrl: 'https://r.example', approvedDate: true, partnerAssurances: false }),
    ).toEqual({
      id: 5,
      name: 'S',
      url: 'https://s.example',
      rating: 8.7,
      rating_count: 3,
      icon: 'https://s.example/logo.png',
      page: 'https://r.example/webshops/5',
      hero_color: '#fff',
      hero_image: '',
      created: '2024-05-06 07:08:09',
    });
  });
});
