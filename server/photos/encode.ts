// Re-encoding an uploaded photo with sharp (libvips), in the worker, one at a time: sharp shares Node's thread pool
// with zlib and crypto, so it never runs in a request. The photo is rotated by its EXIF orientation, then every piece
// of metadata is dropped (sharp writes none unless asked: no EXIF, GPS, XMP or ICC; colours are converted to sRGB),
// and written as WebP at most 1600 px on the long side, plus a 320 px thumbnail made from that.
import sharp from 'sharp';
import { PHOTO_LIMITS } from './detect.js';

const LARGE_PX = 1600;
const THUMB_PX = 320;

export interface EncodedPhoto {
  large: Buffer;
  thumb: Buffer;
  width: number;
  height: number;
  thumbWidth: number;
  thumbHeight: number;
}

// One photo at a time in this process anyway; sharp's own threads for that one photo stay as they are.
sharp.cache(false);

/** Throws on a file libvips cannot read (damaged, or past the pixel limit the header check already applied). */
export async function encodePhoto(input: Buffer): Promise<EncodedPhoto> {
  const large = await sharp(input, { limitInputPixels: PHOTO_LIMITS.pixels, failOn: 'error' })
    .rotate()
    .resize({ width: LARGE_PX, height: LARGE_PX, fit: 'inside', withoutEnlargement: true })
    .toColourspace('srgb')
    .webp({ quality: 80 })
    .toBuffer({ resolveWithObject: true });
  const thumb = await sharp(large.data)
    .resize({ width: THUMB_PX, height: THUMB_PX, fit: 'inside', withoutEnlargement: true })
    .webp({ quality: 75 })
    .toBuffer({ resolveWithObject: true });
  return {
    large: large.data,
    thumb: thumb.data,
    width: large.info.width,
    height: large.info.height,
    thumbWidth: thumb.info.width,
    thumbHeight: thumb.info.height,
  };
}
