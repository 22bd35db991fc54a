import { describe, expect, it } from 'vitest';
import { LINK_SECRET_FORMAT, newLinkSecret, policyPageUrl, publicPageUrl } from './links.js';

describe('link secrets', () => {
  it('are 192 random bits in URL-safe characters, and what the format check accepts', () => {
    const secrets = new Set(Array.from({ length: 200 }, newLinkSecret));
    expect(secrets.size).toBe(200);
    for (const s of secrets) {
      expect(s).toMatch(/^[A-Za-z0-9_-]{32}$/);
      expect(LINK_SECRET_FORMAT.test(s)).toBe(true);
    }
  });

  it('the format check refuses what could be an operator or a path', () => {
    for (const bad of ['', 'short', '{"$ne":null}', '../../etc/passwd/aaaaaaaaaa', 'a'.repeat(129)])
      expect(LINK_SECRET_FORMAT.test(bad)).toBe(false);
  });
});

describe('public addresses', () => {
  it('name the shop page and its policy page under the base URL', () => {
    expect(publicPageUrl('https://reviews.example.com', 12)).toBe('https://reviews.example.com/webshops/12');
    expect(policyPageUrl('https://reviews.example.com', 12)).toBe('https://reviews.example.com/webshops/12/policy');
    expect(policyPageUrl('https://reviews.example.com', 12, 'nl')).toBe(
      'https://reviews.example.com/webshops/12/policy?lang=nl',
    );
  });
});
