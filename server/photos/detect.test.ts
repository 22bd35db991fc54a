import { describe, expect, it } from 'vitest';
import { heicHeader, jpegHeader, photoWithMetadata, pngBomb } from '../../test/photo-fixtures.js';
import { detectPhoto, PHOTO_LIMITS } from './detect.js';

describe('detectPhoto', () => {
  it.each(['jpeg', 'png', 'webp', 'avif'] as const)(
    'recognises %s from its bytes, with its declared size',
    async (format) => {
      const bytes = await photoWithMetadata(format);
      expect(detectPhoto(bytes, true)).toEqual({ ok: true, format, width: 64, height: 32 });
    },
  );

  it('asks for more bytes while a header is cut short, and refuses it once the file ended', async () => {
    const jpeg = await photoWithMetadata('jpeg');
    expect(detectPhoto(jpeg.subarray(0, 20), false)).toBeUndefined();
    expect(detectPhoto(jpeg.subarray(0, 20), true)).toEqual({ ok: false, reason: 'unreadable' });
  });

  it('refuses HEIC, text and unknown bytes, whatever they are called', () => {
    expect(detectPhoto(heicHeader(), true)).toEqual({ ok: false, reason: 'unreadable' });
    expect(detectPhoto(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"></svg>'), true)).toEqual({
      ok: false,
      reason: 'unreadable',
    });
    expect(detectPhoto(Buffer.alloc(5000, 0), true)).toEqual({ ok: false, reason: 'unreadable' });
  });

  it('refuses a decompression bomb from its header alone (PNG and JPEG)', () => {
    expect(detectPhoto(pngBomb(), false)).toEqual({ ok: false, reason: 'too_many_pixels' });
    expect(detectPhoto(jpegHeader(65_000, 65_000), false)).toEqual({ ok: false, reason: 'too_many_pixels' });
    // 40 megapixels exactly pass; one row more does not.
    expect(detectPhoto(jpegHeader(8000, 5000), false)).toMatchObject({ ok: true });
    expect(detectPhoto(jpegHeader(8000, 5001), false)).toMatchObject({ ok: false, reason: 'too_many_pixels' });
  });

  it('gives up on a JPEG whose frame header is not within the first bytes it reads', () => {
    const app1 = Buffer.from([0xff, 0xe1, 0xff, 0xff]);
    const endless = Buffer.concat([
      Buffer.from([0xff, 0xd8]),
      ...Array.from({ length: 5 }, () => Buffer.concat([app1, Buffer.alloc(65_533)])),
    ]);
    expect(endless.length).toBeGreaterThan(PHOTO_LIMITS.head);
    expect(detectPhoto(endless, false)).toEqual({ ok: false, reason: 'unreadable' });
  });
});
