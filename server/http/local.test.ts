import { describe, expect, it } from 'vitest';
import { isLocalHost } from './local.js';

const BASE = 'http://localhost:3000';

describe('isLocalHost', () => {
  it('accepts the names of this machine and of BASE_URL, with or without a port', () => {
    for (const host of [
      'localhost:3000',
      'localhost',
      'app.localhost:3000',
      '127.0.0.1:3000',
      '127.1.2.3',
      '[::1]:3000',
    ]) {
      expect(isLocalHost(host, BASE), host).toBe(true);
    }
    expect(isLocalHost('reviews.example:8443', 'https://reviews.example')).toBe(true);
  });

  it('refuses other names, however they start, and malformed values', () => {
    for (const host of [
      'evil.example',
      '127.0.0.1.evil.example',
      'localhost.evil.example',
      'user@localhost',
      '',
      ' ',
      '[::1',
      '10.0.0.1',
    ]) {
      expect(isLocalHost(host, BASE), host).toBe(false);
    }
  });
});
