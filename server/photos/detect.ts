// What an uploaded file is, from its first bytes: JPEG, PNG, WebP or AVIF, and its size in pixels as its header
// declares it. Nothing is decoded: a decompression bomb (a few KB declaring a gigapixel) is refused here, before
// any decoder sees it. The name and the declared type are never trusted. Pure; `upload.ts` feeds it the head of the
// stream.

type PhotoFormat = 'jpeg' | 'png' | 'webp' | 'avif';

export const PHOTO_LIMITS = {
  /** Bytes of one uploaded file. */
  bytes: 10 * 1024 * 1024,
  /** Pixels (width × height) as the header declares them. */
  pixels: 40_000_000,
  /** Photos per review. */
  perReview: 5,
  /** Characters of a photo's description (its alternative text). */
  alt: 200,
  /** The most bytes read before a header must have given the size (a JPEG's metadata segments come first). */
  head: 256 * 1024,
} as const;

export type Detection =
  | { ok: true; format: PhotoFormat; width: number; height: number }
  /** `unreadable`: not one of the four formats (HEIC included), or a header without a usable size. */
  | { ok: false; reason: 'unreadable' | 'too_many_pixels' };

/** undefined: the bytes so far are not enough to tell (give more, up to PHOTO_LIMITS.head). */
export function detectPhoto(head: Uint8Array, complete: boolean): Detection | undefined {
  const found = sniff(head);
  if (found === 'more') return complete || head.length >= PHOTO_LIMITS.head ? unreadable : undefined;
  if (!found) return unreadable;
  const { width, height } = found;
  if (!(width > 0 && height > 0)) return unreadable;
  if (width * height > PHOTO_LIMITS.pixels) return { ok: false, reason: 'too_many_pixels' };
  return { ok: true, ...found };
}

const unreadable: Detection = { ok: false, reason: 'unreadable' };

type Sniffed = { format: PhotoFormat; width: number; height: number } | null | 'more';

function sniff(b: Uint8Array): Sniffed {
  if (b.length < 12) return 'more';
  if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return jpeg(b);
  if (startsWith(b, 0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return png(b);
  if (ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 4) === 'WEBP') return webp(b);
  if (ascii(b, 4, 4) === 'ftyp') return avif(b);
  return null;
}

const startsWith = (b: Uint8Array, at: number, bytes: number[]) => bytes.every((x, i) => b[at + i] === x);
const ascii = (b: Uint8Array, at: number, n: number) => String.fromCharCode(...b.subarray(at, at + n));
const u16be = (b: Uint8Array, at: number) => (b[at]! << 8) | b[at + 1]!;
const u32be = (b: Uint8Array, at: number) =>
  ((b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!) >>> 0;
const u24le = (b: Uint8Array, at: number) => b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16);

function png(b: Uint8Array): Sniffed {
  if (b.length < 24) return 'more';
  if (ascii(b, 12, 4) !== 'IHDR') return null;
  return { format: 'png', width: u32be(b, 16), height: u32be(b, 20) };
}

/** Start-of-frame markers (baseline, progressive, lossless, arithmetic): they carry the frame's size. */
const SOF = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

function jpeg(b: Uint8Array): Sniffed {
  let at = 2;
  for (;;) {
    if (at + 4 > b.length) return 'more';
    if (b[at] !== 0xff) return null;
    const marker = b[at + 1]!;
    // Fill bytes, and markers without a length (restart markers, TEM).
    if (marker === 0xff) {
      at++;
      continue;
    }
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      at += 2;
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return null;
    const length = u16be(b, at + 2);
    if (length < 2) return null;
    if (SOF.has(marker)) {
      if (at + 9 > b.length) return 'more';
      return { format: 'jpeg', height: u16be(b, at + 5), width: u16be(b, at + 7) };
    }
    at += 2 + length;
  }
}

function webp(b: Uint8Array): Sniffed {
  if (b.length < 30) return 'more';
  const chunk = ascii(b, 12, 4);
  if (chunk === 'VP8 ') {
    // Lossy: a key frame's start code, then 14-bit width and height (the top 2 bits are scaling).
    if (!(b[23] === 0x9d && b[24] === 0x01 && b[25] === 0x2a)) return null;
    return { format: 'webp', width: (b[26]! | (b[27]! << 8)) & 0x3fff, height: (b[28]! | (b[29]! << 8)) & 0x3fff };
  }
  if (chunk === 'VP8L') {
    if (b[20] !== 0x2f) return null;
    const bits = (b[21]! | (b[22]! << 8) | (b[23]! << 16) | (b[24]! << 24)) >>> 0;
    return { format: 'webp', width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8X') return { format: 'webp', width: u24le(b, 24) + 1, height: u24le(b, 27) + 1 };
  return null;
}

/**
 * ISO base media files: AVIF only when a brand says so (HEIC shares the container and is refused: the decoder we
 * ship cannot read it). The size is the largest `ispe` (image spatial extent) property in the head: a grid image
 * declares its full size there, so no tile trick gets past the pixel limit.
 */
function avif(b: Uint8Array): Sniffed {
  const ftypSize = u32be(b, 0);
  if (ftypSize < 16 || ftypSize > 4096) return null;
  if (ftypSize > b.length) return 'more';
  const brands = [ascii(b, 8, 4)];
  for (let at = 16; at + 4 <= ftypSize; at += 4) brands.push(ascii(b, at, 4));
  if (!brands.some((brand) => brand === 'avif' || brand === 'avis')) return null;
  let width = 0;
  let height = 0;
  let found = false;
  for (let at = ftypSize; at + 20 <= b.length; at++) {
    if (b[at] !== 0x69 || ascii(b, at, 4) !== 'ispe') continue;
    const w = u32be(b, at + 8);
    const h = u32be(b, at + 12);
    if (w * h >= width * height) [width, height] = [w, h];
    found = true;
  }
  // The properties come in the `meta` box, before the image data: past the head without one, the file is refused.
  return found ? { format: 'avif', width, height } : 'more';
}
