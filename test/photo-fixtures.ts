// Photos for the photo tests, made with sharp: each accepted format carrying camera metadata and a GPS position
// (which the re-encoding must drop), and crafted headers (HEIC, decompression bombs) that must never be decoded.
import sharp from 'sharp';

export const SECRET_MAKE = 'SecretCam4711';

/** A 64×32 picture (wider than tall) with EXIF (camera make, GPS) and, for JPEG, orientation 6 (rotate 90°). */
export async function photoWithMetadata(format: 'jpeg' | 'png' | 'webp' | 'avif'): Promise<Buffer> {
  const exif = {
    IFD0: { Make: SECRET_MAKE, Model: 'X1' },
    IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '52/1 22/1 17/1', GPSLongitudeRef: 'E', GPSLongitude: '4/1 53/1 9/1' },
  };
  const base = sharp({ create: { width: 64, height: 32, channels: 3, background: { r: 180, g: 40, b: 20 } } });
  const typed =
    format === 'jpeg' ? base.jpeg() : format === 'png' ? base.png() : format === 'webp' ? base.webp() : base.avif();
  const withExif = typed.withExif(exif);
  return (format === 'jpeg' ? withExif.withMetadata({ orientation: 6 }).withExif(exif) : withExif).toBuffer();
}

/** The first bytes of an HEIC file (an ISO media file whose brands are HEIF's): never decodable here. */
export function heicHeader(): Buffer {
  const ftyp = Buffer.alloc(24);
  ftyp.writeUInt32BE(24, 0);
  ftyp.write('ftypheic', 4, 'latin1');
  ftyp.writeUInt32BE(0, 12);
  ftyp.write('mif1heic', 16, 'latin1');
  return Buffer.concat([ftyp, Buffer.alloc(2000, 7)]);
}

/**
 * A PNG of a few hundred bytes declaring `width` × `height` pixels: decoding it would take gigabytes. Its header is
 * well formed (IHDR with a valid CRC-less body: nothing past the header may be read).
 */
export function pngBomb(width = 100_000, height = 100_000): Buffer {
  const head = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const ihdr = Buffer.alloc(25);
  ihdr.writeUInt32BE(13, 0);
  ihdr.write('IHDR', 4, 'latin1');
  ihdr.writeUInt32BE(width, 8);
  ihdr.writeUInt32BE(height, 12);
  ihdr.writeUInt8(8, 16);
  ihdr.writeUInt8(2, 17);
  return Buffer.concat([head, ihdr, Buffer.alloc(300)]);
}

/** A JPEG start (SOI, a baseline frame header of `width` × `height`) followed by `padding` bytes. */
export function jpegHeader(width: number, height: number, padding = 0): Buffer {
  const sof = Buffer.from([0xff, 0xc0, 0x00, 0x11, 0x08, height >> 8, height & 0xff, width >> 8, width & 0xff, 3]);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), sof, Buffer.alloc(9), Buffer.alloc(padding, 0x55)]);
}
