import { describe, expect, it } from 'vitest';
import { FORM_TOKEN_TTL_MS, signFormToken, verifyFormToken } from './form-token.js';

const key = Buffer.alloc(32, 7);
const at = new Date('2026-05-01T12:00:00Z');

describe('report form token', () => {
  it('is accepted for its review while fresh', () => {
    const token = signFormToken(key, 12, at);
    expect(verifyFormToken(key, 12, token, new Date(at.getTime() + 60_000))).toBe(true);
  });

  it('is refused for another review, with another key, once expired, or when altered', () => {
    const token = signFormToken(key, 12, at);
    expect(verifyFormToken(key, 13, token, at)).toBe(false);
    expect(verifyFormToken(Buffer.alloc(32, 8), 12, token, at)).toBe(false);
    expect(verifyFormToken(key, 12, token, new Date(at.getTime() + FORM_TOKEN_TTL_MS + 1000))).toBe(false);
    const [issued, sig] = token.split('.');
    expect(verifyFormToken(key, 12, `${Number(issued) + 1}.${sig}`, at)).toBe(false);
    for (const junk of [undefined, '', ['x'], { a: 1 }, 'abc.def', `${issued}.${sig}x`]) {
      expect(verifyFormToken(key, 12, junk, at)).toBe(false);
    }
  });
});
