import { describe, expect, it } from 'vitest';
import { burstLimit, isShopAddress, shopDomain } from './rules.js';

describe('burstLimit', () => {
  it('is 10 for a quiet shop and 5 × the daily average over 90 days for a busy one', () => {
    expect(burstLimit(Array(90).fill(0))).toBe(10);
    expect(burstLimit(Array(90).fill(1))).toBe(10);
    expect(burstLimit(Array(90).fill(4))).toBe(20);
    // The average is over the 90 days, quiet ones included.
    expect(burstLimit([...Array(45).fill(8), ...Array(45).fill(0)])).toBe(20);
  });
});

describe('isShopAddress', () => {
  it('matches the shop’s domain and its subdomains, never a public mail provider', () => {
    const domain = shopDomain('https://WWW.Fiets.example/nl/');
    expect(domain).toBe('fiets.example');
    expect(isShopAddress('jan@fiets.example', domain)).toBe(true);
    expect(isShopAddress('jan@mail.fiets.example', domain)).toBe(true);
    expect(isShopAddress('jan@notfiets.example', domain)).toBe(false);
    expect(isShopAddress('jan@gmail.com', shopDomain('https://gmail.com/'))).toBe(false);
    expect(isShopAddress('jan@fiets.example', shopDomain('not a url'))).toBe(false);
  });
});
